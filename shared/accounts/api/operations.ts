import { ANY_KEY } from '#shared/api/route-group.ts';
import { defineRoute, type RouteDefinition } from '#shared/platform/http/route-definition.ts';
import { meSchema } from './schemas.ts';

export const getMeOperation = /* @__PURE__ */ defineRoute({
  operationId: 'getMe',
  method: 'GET',
  path: '/v1/me',
  summary: 'Introspect the calling key: owner, scopes, plan and usage',
  description: 'Works with any valid key and is exempt from monthly quotas.',
  tags: ['Account'],
  ...ANY_KEY,
  request: {},
  responses: [{ status: 200, description: 'The key, its scopes and its plan', schema: meSchema }],
  handler: 'functions/http/accounts/get-me.ts',
});

export const accountOperations = {
  getMe: getMeOperation,
} satisfies Record<string, RouteDefinition>;
