import { defineRoute, type RouteDefinition } from '../../platform/http/route-definition.ts';
import { meSchema } from '../schemas/me.ts';
import { ANY_KEY } from './route-group.ts';

export const getMeRoute = /* @__PURE__ */ defineRoute({
  operationId: 'getMe',
  method: 'GET',
  path: '/v1/me',
  summary: 'Introspect the calling key: owner, scopes, plan and usage',
  description: 'Works with any valid key and is exempt from monthly quotas.',
  tags: ['Account'],
  ...ANY_KEY,
  request: {},
  responses: [{ status: 200, description: 'The key, its scopes and its plan', schema: meSchema }],
  handler: 'functions/http/account/get-me.ts',
});

export const accountRoutes = {
  getMe: getMeRoute,
} satisfies Record<string, RouteDefinition>;
