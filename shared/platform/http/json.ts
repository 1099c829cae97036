/** The HTTP chain writes bodies as canonical JSON (canonical-json.ts). */
export { canonicalJson } from '#shared/kernel/canonical-json.ts';

export const JSON_CONTENT_TYPE = 'application/json';
export const PROBLEM_CONTENT_TYPE = 'application/problem+json';
