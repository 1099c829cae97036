import { describe, expect, it } from 'vitest';
import { createRouter, type LocalRoute } from './router.ts';

const route = (method: string, path: string): LocalRoute => ({
  method,
  path,
  operationId: `${method} ${path}`,
  handler: `functions/${method}${path}.ts`,
});
const fallback = { operationId: 'routeNotFound', handler: 'functions/fallback.ts' };

describe('createRouter', () => {
  const router = createRouter(
    [
      route('GET', '/v1/webhooks/{id}'),
      route('GET', '/v1/webhooks/event-types'),
      route('POST', '/v1/vehicles/{id}/deactivate'),
      route('GET', '/v1/vehicles/{id}'),
      route('GET', '/v1/me'),
      route('ANY', '/v1/files/{proxy+}'),
      route('GET', '/v1/files/{proxy+}'),
    ],
    fallback,
  );

  it('prefers a literal segment over a parameter, whatever the order of the table', () => {
    const match = router.match('GET', '/v1/webhooks/event-types');

    expect(match.routeKey).toBe('GET /v1/webhooks/event-types');
    expect(match.pathParameters).toBeUndefined();
  });

  it('decodes path parameters per segment', () => {
    const match = router.match('GET', '/v1/vehicles/ext%3ATRUCK%2F7');

    expect(match.routeKey).toBe('GET /v1/vehicles/{id}');
    expect(match.pathParameters).toEqual({ id: 'ext:TRUCK/7' });
  });

  it('matches the method exactly and sends the rest to $default', () => {
    expect(router.match('DELETE', '/v1/me').routeKey).toBe('$default');
    expect(router.match('GET', '/v1/vehicles/veh_1/deactivate').routeKey).toBe('$default');
    expect(router.match('GET', '/v1/me/').routeKey).toBe('$default');
    expect(router.match('GET', '/v1/vehicles/').routeKey).toBe('$default');
    expect(router.match('GET', '/v1/nope')).toMatchObject({
      routeKey: '$default',
      handler: fallback.handler,
    });
  });

  it('lets a greedy parameter take the rest of the path, an exact method beating ANY', () => {
    expect(router.match('GET', '/v1/files/a/b%20c')).toMatchObject({
      routeKey: 'GET /v1/files/{proxy+}',
      pathParameters: { proxy: 'a/b c' },
    });
    expect(router.match('PUT', '/v1/files/a').routeKey).toBe('ANY /v1/files/{proxy+}');
    expect(router.match('GET', '/v1/files').routeKey).toBe('$default');
  });

  it('refuses a table with the same route twice', () => {
    expect(() => createRouter([route('GET', '/v1/me'), route('GET', '/v1/me')], fallback)).toThrow(
      /Duplicate/,
    );
  });
});
