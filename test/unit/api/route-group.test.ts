import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { adminOperations } from '#shared/admin/api/operations.ts';
import { handlerFileName, NO_KEY, routeGroup } from '#shared/api/route-group.ts';
import { fallbackOperation, servedRouteList } from '#shared/api/route-table.ts';

const repoRoot = join(import.meta.dirname, '../../..');
const everyOperation = [...servedRouteList, ...Object.values(adminOperations), fallbackOperation];

describe('routeGroup', () => {
  const pageRoute = routeGroup({ tags: ['Pages'], handlers: 'functions/http/pages', ...NO_KEY });

  it('splits the route key into method and path, and finds the handler by the operationId', () => {
    const route = pageRoute({
      operationId: 'getStartPage',
      route: 'GET /start/{id}',
      summary: 'A page',
      request: {},
      responses: [{ status: 200, description: 'HTML page' }],
    });

    expect(route).toMatchObject({
      operationId: 'getStartPage',
      method: 'GET',
      path: '/start/{id}',
      handler: 'functions/http/pages/get-start-page.ts',
      tags: ['Pages'],
      access: 'anonymous',
      role: 'public',
    });
    expect(route).not.toHaveProperty('route');
    expect(route).not.toHaveProperty('handlers');
  });

  it('keeps a handler an entry names (a route that shares another’s module)', () => {
    const route = pageRoute({
      operationId: 'getRootPage',
      route: 'GET /',
      summary: 'The same page at the root',
      request: {},
      responses: [{ status: 200, description: 'HTML page' }],
      handler: 'functions/http/pages/get-start-page.ts',
    });

    expect(route.handler).toBe('functions/http/pages/get-start-page.ts');
  });

  it('names a handler file after the operationId in kebab case', () => {
    expect(handlerFileName('startTrip')).toBe('start-trip');
    expect(handlerFileName('listProductionAccessRequests')).toBe('list-production-access-requests');
    expect(handlerFileName('mcp')).toBe('mcp');
  });
});

describe('every operation', () => {
  it.each(everyOperation.map((operation) => [operation.operationId, operation.handler]))(
    '%s: its handler file %s exists',
    (_operationId, handler) => {
      expect(existsSync(join(repoRoot, handler))).toBe(true);
    },
  );
});
