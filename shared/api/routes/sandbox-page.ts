import type { RouteDefinition } from '../../platform/http/route-definition.ts';
import { NO_KEY, routeGroup } from './route-group.ts';

/**
 * The sandbox page and its two files (docs/sandbox-page.md). Pages, not API operations: no key,
 * not counted, not in openapi.json. They answer only on the sandbox stage (404 with a hint on
 * production).
 */
const pageRoute = routeGroup({ tags: ['Sandbox page'], ...NO_KEY });

export const getSandboxPageRoute = /* @__PURE__ */ pageRoute({
  operationId: 'getSandboxPage',
  method: 'GET',
  path: '/sandbox',
  summary: 'The sandbox page: the simulated fleet on a map of the United States',
  request: {},
  responses: [{ status: 200, description: 'HTML page' }],
  handler: 'functions/http/sandbox-page/get-sandbox-page.ts',
});

export const getSandboxPageAssetRoute = /* @__PURE__ */ pageRoute({
  operationId: 'getSandboxPageAsset',
  method: 'GET',
  path: '/sandbox/assets/{file}',
  summary: 'The sandbox page’s script (app.js) or stylesheet (app.css)',
  request: {},
  responses: [{ status: 200, description: 'JavaScript or CSS' }],
  handler: 'functions/http/sandbox-page/get-sandbox-page-asset.ts',
});

export const sandboxPageRoutes = {
  getSandboxPage: getSandboxPageRoute,
  getSandboxPageAsset: getSandboxPageAssetRoute,
} satisfies Record<string, RouteDefinition>;
