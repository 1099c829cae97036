import { routes } from '../../../shared/api/routes.ts';
import { ERROR_REGISTRY } from '../../../shared/platform/errors.ts';
import { ok } from '../../../shared/platform/http/types.ts';
import { httpHandler } from '../../../shared/wiring/http.ts';

const registry = {
  data: Object.entries(ERROR_REGISTRY).map(([code, entry]) => ({
    code,
    status: entry.status,
    title: entry.title,
    hint: entry.hint,
  })),
};

export const handler = httpHandler(routes.listErrors, async () => ok(registry));
