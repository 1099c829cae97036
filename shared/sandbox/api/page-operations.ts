import { NO_KEY, routeGroup } from '#shared/api/route-group.ts';
import type { RouteDefinition } from '#shared/platform/http/route-definition.ts';

/**
 * The sandbox page and its two files (docs/sandbox-page.md). Pages, not API operations: no key,
 * not counted, not in openapi.json. They answer only on the sandbox stage (404 with a hint on
 * production).
 */
const pageOperation = routeGroup({ tags: ['Sandbox page'], handlers: 'functions/http/sandbox', ...NO_KEY });

export const getSandboxPageOperation = /* @__PURE__ */ pageOperation({
  operationId: 'getSandboxPage',
  route: 'GET /sandbox',
  summary: 'The sandbox page: the simulated fleet on a map of the United States',
  responses: [{ status: 200, description: 'HTML page' }],
});

export const getSandboxPageAssetOperation = /* @__PURE__ */ pageOperation({
  operationId: 'getSandboxPageAsset',
  route: 'GET /sandbox/assets/{file}',
  summary: 'The sandbox page’s script (app.js) or stylesheet (app.css)',
  responses: [{ status: 200, description: 'JavaScript or CSS' }],
});

export const sandboxPageOperations = {
  getSandboxPage: getSandboxPageOperation,
  getSandboxPageAsset: getSandboxPageAssetOperation,
} satisfies Record<string, RouteDefinition>;
