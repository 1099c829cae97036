import { ANY_KEY, routeGroup } from '#shared/api/route-group.ts';
import type { RouteDefinition } from '#shared/platform/http/route-definition.ts';
import { meSchema } from './schemas.ts';

const accountOperation = routeGroup({ tags: ['Account'], handlers: 'functions/http/accounts', ...ANY_KEY });

export const getMeOperation = /* @__PURE__ */ accountOperation({
  operationId: 'getMe',
  route: 'GET /v1/me',
  summary: 'Introspect the calling key: owner, scopes, plan and usage',
  description: 'Works with any valid key and is exempt from monthly quotas.',
  responses: [{ status: 200, description: 'The key, its scopes and its plan', schema: meSchema }],
});

export const accountOperations = {
  getMe: getMeOperation,
} satisfies Record<string, RouteDefinition>;
