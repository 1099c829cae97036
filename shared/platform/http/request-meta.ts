import { newId } from '#shared/kernel/ids.ts';
import type { HttpEvent } from './types.ts';

/** Our own `req_` id, also returned as the `Request-Id` header and logged with every line. */
export const newRequestId = () => newId('request');

/**
 * The stage's public base URL from the request itself (API Gateway sets x-forwarded-proto and the
 * domain name), so OpenAPI `servers` and problem `type` URLs are right on every stage and locally.
 */
export function publicBaseUrl(event: HttpEvent): string {
  const proto = event.headers?.['x-forwarded-proto']?.split(',')[0]?.trim() || 'https';
  const host = event.requestContext?.domainName || event.headers?.host || 'localhost';
  return `${proto}://${host}`;
}

export function header(event: HttpEvent, name: string): string | undefined {
  const value = event.headers?.[name.toLowerCase()];
  return value === undefined || value === '' ? undefined : value;
}

export function rawBody(event: HttpEvent): string | undefined {
  if (event.body === undefined || event.body === null) return undefined;
  return event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
}
