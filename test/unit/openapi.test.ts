import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  buildOpenApiDocument,
  errorCodesFor,
  IDEMPOTENCY_KEY_MAX_LENGTH,
  OPENAPI_SERVER_PLACEHOLDER,
  serializeOpenApiDocument,
} from '#shared/api/openapi.ts';
import { routeList } from '#shared/api/route-table.ts';
import { ERROR_REGISTRY } from '#shared/platform/errors.ts';
import { defineRoute, type RouteDefinition } from '#shared/platform/http/route-definition.ts';

const OPENAPI_FILE = fileURLToPath(new URL('../../openapi.json', import.meta.url));

/** The document as plain JSON, walked by member names as a client would. */
type Json = Record<string, unknown>;

const asJson = (value: unknown): Json => {
  if (typeof value !== 'object' || value === null)
    throw new Error(`Expected an object, got ${String(value)}`);
  return value as Json;
};

const documentOf = (routes?: readonly RouteDefinition[]): Json =>
  JSON.parse(serializeOpenApiDocument(buildOpenApiDocument(routes)));

/** Follows a local `$ref` (one level is all the generator ever writes). */
function resolve(document: Json, node: unknown): Json {
  const value = asJson(node);
  if (typeof value.$ref !== 'string') return value;
  return value.$ref
    .replace(/^#\//, '')
    .split('/')
    .reduce<Json>((at, key) => asJson(at[key]), document);
}

function operationOf(document: Json, route: Pick<RouteDefinition, 'method' | 'path'>): Json {
  const pathItem = asJson(asJson(document.paths)[route.path]);
  return asJson(pathItem[route.method.toLowerCase()]);
}

function parametersOf(document: Json, operation: Json): Json[] {
  return ((operation.parameters as unknown[] | undefined) ?? []).map((parameter) =>
    resolve(document, parameter),
  );
}

function responsesOf(operation: Json): Json {
  return asJson(operation.responses);
}

const headerParameter = (parameters: Json[], name: string) =>
  parameters.find((parameter) => parameter.in === 'header' && parameter.name === name);

const syntheticIdempotentRoute = defineRoute({
  operationId: 'createThing',
  method: 'POST',
  path: '/v1/things',
  summary: 'Create a thing (synthetic route: no idempotent route ships yet)',
  tags: ['Routes'],
  access: 'fleet',
  scope: 'vehicles:manage',
  family: 'routes',
  role: 'api',
  idempotent: true,
  request: { body: z.strictObject({ name: z.string() }) },
  responses: [{ status: 201, description: 'Created', schema: z.object({ id: z.string() }) }],
  handler: 'functions/http/things/create-thing.ts',
});

describe('openapi.json', () => {
  it('is up to date with the route table', () => {
    const committed = readFileSync(OPENAPI_FILE, 'utf8');

    expect(committed, 'openapi.json is stale: run `npm run openapi` and commit the result').toBe(
      serializeOpenApiDocument(buildOpenApiDocument()),
    );
  });

  // Linting the whole document (~850 KB, every example validated against its schema) takes a few
  // seconds alone, more on a busy machine.
  it('passes the Redocly recommended-strict ruleset', { timeout: 60_000 }, async () => {
    const config = await createConfig({
      extends: ['recommended-strict'],
      rules: {
        // The service is not published under a licence; an invented one would mislead.
        'info-license': 'off',
        // The anonymous discovery documents take no input and no key, so no 4xx can happen; the
        // keyed operations' 4xx responses are asserted below instead.
        'operation-4xx-response': 'off',
      },
    });
    const problems = await lintFromString({
      source: readFileSync(OPENAPI_FILE, 'utf8'),
      absoluteRef: OPENAPI_FILE,
      config,
    });

    const report = problems.map(
      (p) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`,
    );
    expect(report).toEqual([]);
  });
});

describe('buildOpenApiDocument', () => {
  const document = documentOf();

  it('is deterministic', () => {
    expect(serializeOpenApiDocument(buildOpenApiDocument())).toBe(
      serializeOpenApiDocument(buildOpenApiDocument()),
    );
  });

  it('is OpenAPI 3.1 with a placeholder server the served copy replaces', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(asJson(document.info).title).toBe('Fleet Fuel Guidance API');
    expect(document.servers).toEqual([expect.objectContaining({ url: OPENAPI_SERVER_PLACEHOLDER })]);
    expect(String(asJson(document.info).description)).toContain(OPENAPI_SERVER_PLACEHOLDER);
  });

  it('declares the bearer key scheme', () => {
    const schemes = asJson(asJson(document.components).securitySchemes);
    expect(schemes.apiKey).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  it('has exactly one operation per route, with its method, path and operationId', () => {
    const operationIds = Object.values(asJson(document.paths)).flatMap((pathItem) =>
      Object.values(asJson(pathItem)).map((operation) => asJson(operation).operationId),
    );
    expect(operationIds.toSorted()).toEqual(routeList.map((route) => route.operationId).toSorted());

    for (const route of routeList) {
      expect(operationOf(document, route).operationId, `${route.method} ${route.path}`).toBe(
        route.operationId,
      );
    }
  });

  it.each(routeList.map((route) => [route.operationId, route] as const))(
    '%s: access, scope and security',
    (_, route) => {
      const operation = operationOf(document, route);

      expect(operation['x-access']).toBe(route.access);
      expect(operation['x-required-scope']).toBe(route.scope);
      expect(operation.summary).toBe(route.summary);
      expect(operation.tags).toEqual(route.tags);
      if (route.access === 'anonymous') {
        expect(operation.security).toEqual([]);
        return;
      }
      expect(operation.security).toEqual([{ apiKey: [] }]);
      expect(operation.description).toContain(
        route.scope ? `Required scope: \`${route.scope}\`.` : 'Any valid key; no scope.',
      );
      if (route.access === 'partner') expect(operation.description).toContain('Partner keys only');
    },
  );

  it.each(routeList.map((route) => [route.operationId, route] as const))(
    '%s: SVC-Fleet header',
    (_, route) => {
      const operation = operationOf(document, route);
      const fleetHeader = headerParameter(parametersOf(document, operation), 'SVC-Fleet');

      if (route.access !== 'fleet' && route.access !== 'fleetOrPartner') {
        expect(fleetHeader).toBeUndefined();
        return;
      }
      expect(fleetHeader).toMatchObject({ in: 'header', required: false });
      expect(fleetHeader?.description).toMatch(/partner keys/i);
      expect(operation.description).toContain('SVC-Fleet');
    },
  );

  it.each(routeList.map((route) => [route.operationId, route] as const))('%s: responses', (_, route) => {
    const responses = responsesOf(operationOf(document, route));
    const statuses = Object.keys(responses);

    for (const response of route.responses) expect(statuses).toContain(String(response.status));
    if (route.method === 'DELETE') {
      expect(statuses).toContain('204');
      expect(asJson(responses['204']).content).toBeUndefined();
    }
    if (route.access !== 'anonymous')
      expect(statuses).toEqual(expect.arrayContaining(['401', '403', '429', '503']));
    if (route.request.params) expect(statuses).toEqual(expect.arrayContaining(['400', '404']));
    if (route.request.body) expect(statuses).toEqual(expect.arrayContaining(['415', '422']));

    for (const [status, node] of Object.entries(responses)) {
      const response = resolve(document, node);
      const headers = Object.keys(asJson(response.headers ?? {}));
      expect(headers, `${status} Request-Id`).toContain('Request-Id');
      if (route.access !== 'anonymous' && status !== '401') {
        expect(headers, `${status} RateLimit headers`).toEqual(
          expect.arrayContaining([
            'RateLimit-Limit',
            'RateLimit-Remaining',
            'RateLimit-Reset',
            'RateLimit-Policy',
            'RateLimit',
            'X-RateLimit-Reset',
          ]),
        );
      }
      if (route.access === 'anonymous') expect(headers).not.toContain('RateLimit-Limit');
      if (status === '429') expect(headers).toContain('Retry-After');
      if (Number(status) >= 400) {
        expect(Object.keys(asJson(response.content))).toEqual(['application/problem+json']);
        // Each operation names the codes it can answer with for that status.
        const codes = errorCodesFor(route).filter((code) => String(ERROR_REGISTRY[code].status) === status);
        for (const code of codes) expect(asJson(node).description).toContain(`\`${code}\``);
      }
    }
  });

  it('asks for no Idempotency-Key where the route is not idempotent', () => {
    for (const route of routeList.filter((r) => !r.idempotent)) {
      const parameters = parametersOf(document, operationOf(document, route));
      expect(headerParameter(parameters, 'Idempotency-Key'), route.operationId).toBeUndefined();
    }
  });

  it('declares a required Idempotency-Key header of at most 64 characters on idempotent routes', () => {
    const synthetic = documentOf([...routeList, syntheticIdempotentRoute]);
    const operation = operationOf(synthetic, syntheticIdempotentRoute);
    const parameters = parametersOf(synthetic, operation);

    expect(IDEMPOTENCY_KEY_MAX_LENGTH).toBe(64);
    expect(headerParameter(parameters, 'Idempotency-Key')).toMatchObject({
      in: 'header',
      required: true,
      schema: { type: 'string', maxLength: 64 },
    });
    expect(headerParameter(parameters, 'SVC-Fleet')).toBeDefined();
    const responses = responsesOf(operation);
    expect(asJson(responses['400']).description).toContain('`idempotency_key_required`');
    expect(asJson(responses['409']).description).toContain('`idempotency_conflict`');
    expect(asJson(responses['422']).description).toContain('`idempotency_key_reuse`');
    expect(operation.description).toContain('Idempotency-Key');
  });

  it('documents route-specific error codes a route lists', () => {
    const route: RouteDefinition = {
      ...syntheticIdempotentRoute,
      idempotent: false,
      errors: ['vehicle_inactive', 'batch_too_large'],
    };
    const responses = responsesOf(operationOf(documentOf([route]), route));

    expect(asJson(responses['409']).description).toContain('`vehicle_inactive`');
    expect(asJson(responses['413']).description).toContain('`batch_too_large`');
  });

  it('publishes the whole error registry', () => {
    expect(document['x-error-registry']).toEqual(
      Object.fromEntries(
        Object.entries(ERROR_REGISTRY).map(([code, { status, title, hint }]) => [
          code,
          { status, title, hint },
        ]),
      ),
    );
  });

  it('describes every tag an operation uses', () => {
    const tags = (document.tags as Json[]).map((tag) => tag.name);
    for (const tag of document.tags as Json[]) expect(String(tag.description).length).toBeGreaterThan(0);
    for (const route of routeList) for (const tag of route.tags) expect(tags).toContain(tag);
  });

  it('refuses a tag without a description', () => {
    expect(() => buildOpenApiDocument([{ ...syntheticIdempotentRoute, tags: ['Nope'] }])).toThrow(/Nope/);
  });

  it('refuses a duplicate operationId', () => {
    expect(() => buildOpenApiDocument([syntheticIdempotentRoute, syntheticIdempotentRoute])).toThrow(
      /Duplicate/,
    );
  });
});
