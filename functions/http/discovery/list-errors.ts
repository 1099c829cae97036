import { routes } from '../../../shared/api/routes.ts';
import { ERROR_REGISTRY } from '../../../shared/platform/errors.ts';
import { createHttpHandler } from '../../../shared/platform/http/handler.ts';
import { ok } from '../../../shared/platform/http/types.ts';

const registry = {
  data: Object.entries(ERROR_REGISTRY).map(([code, entry]) => ({
    code,
    status: entry.status,
    title: entry.title,
    hint: entry.hint,
  })),
};

export const handler = createHttpHandler(routes.listErrors, async () => ok(registry));
