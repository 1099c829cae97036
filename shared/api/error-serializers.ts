import { ERROR_REGISTRY } from '#shared/platform/errors.ts';

/** GET /v1/errors: every problem `code`, with its status, title and hint. */
export function errorRegistryResource() {
  return {
    data: Object.entries(ERROR_REGISTRY).map(([code, entry]) => ({
      code,
      status: entry.status,
      title: entry.title,
      hint: entry.hint,
    })),
  };
}
