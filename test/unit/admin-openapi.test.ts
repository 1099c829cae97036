import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { adminOperationExamples } from '#shared/admin/api/examples.ts';
import { buildAdminOpenApiDocument } from '#shared/admin/api/openapi.ts';
import { adminOperations, adminRouteList } from '#shared/admin/api/operations.ts';
import { buildOpenApiDocument, serializeOpenApiDocument } from '#shared/api/openapi.ts';
import { routeList } from '#shared/api/route-table.ts';
import type { RouteDefinition } from '#shared/platform/http/route-definition.ts';

const ADMIN_OPENAPI_FILE = fileURLToPath(new URL('../../admin-openapi.json', import.meta.url));
// biome-ignore lint/suspicious/noExplicitAny: the test walks a generated document by member names.
type Json = Record<string, any>;

describe('admin-openapi.json', () => {
  it('is up to date with the operator route table', () => {
    expect(
      readFileSync(ADMIN_OPENAPI_FILE, 'utf8'),
      'admin-openapi.json is stale: run `npm run openapi` and commit the result',
    ).toBe(serializeOpenApiDocument(buildAdminOpenApiDocument()));
  });

  it('documents every operator route with operator security and no API-key or rate-limit machinery', () => {
    const document = buildAdminOpenApiDocument() as unknown as Json;
    expect(Object.keys(document.components.securitySchemes)).toEqual(['operator']);
    expect(document.components.headers).not.toHaveProperty('RateLimitLimit');
    for (const route of adminRouteList) {
      const operation = document.paths[route.path][route.method.toLowerCase()];
      expect(operation.security, route.operationId).toEqual([{ operator: [] }]);
      expect(operation.responses, route.operationId).toHaveProperty('401');
      expect(operation.responses['401'].description).toContain('missing_api_key');
      expect(operation.responses, route.operationId).not.toHaveProperty('429');
    }
    expect(document.paths['/admin/v1/plans/{name}'].put.responses).toHaveProperty('422');
  });

  it('keeps the operator API out of the public document and route table', () => {
    const publicPaths = Object.keys(buildOpenApiDocument().paths ?? {});
    expect(publicPaths.some((path) => path.startsWith('/admin'))).toBe(false);
    expect(routeList.some((route) => route.access === 'operator' || route.path.startsWith('/admin'))).toBe(
      false,
    );
    expect(
      adminRouteList.every((route) => route.access === 'operator' && route.path.startsWith('/admin/v1/')),
    ).toBe(true);
  });

  it.each(Object.entries(adminOperationExamples))(
    'publishes %s examples that parse with the route’s own schemas',
    (operationId, examples) => {
      const route: RouteDefinition = adminOperations[operationId as keyof typeof adminOperations];
      const parts = [
        [route.request.params, examples?.request?.params],
        [route.request.body, examples?.request?.body],
        ...route.responses.map(
          (response) => [response.schema, examples?.responses?.[response.status]] as const,
        ),
      ] as const;
      for (const [schema, value] of parts) {
        if (!schema) continue;
        expect(value, `${operationId}: an example for every part with a schema`).toBeDefined();
        expect(z.safeParse(schema as z.core.$ZodType, value).error?.issues ?? []).toEqual([]);
      }
      const document = buildAdminOpenApiDocument() as unknown as Json;
      const operation = document.paths[route.path][route.method.toLowerCase()];
      expect(operation.responses['200'].content['application/json'].example).toEqual(
        examples?.responses?.[200],
      );
    },
  );
});
