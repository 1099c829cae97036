import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { problemSchema } from '#shared/api/common-schemas.ts';
import { type OperationExamples, problemExample } from '#shared/api/example.ts';
import { operationExamples } from '#shared/api/examples.ts';
import {
  buildOpenApiDocument,
  errorCodesFor,
  OPENAPI_SERVER_PLACEHOLDER,
  serializeOpenApiDocument,
} from '#shared/api/openapi.ts';
import { routeList } from '#shared/api/route-table.ts';
import { CHECKS } from '#shared/integration-health/domain/checks.ts';
import { ID_PREFIXES } from '#shared/kernel/ids.ts';
import { roundCoordinate } from '#shared/kernel/rounding.ts';
import { ApiError } from '#shared/platform/errors.ts';
import { defineRoute, type RouteDefinition } from '#shared/platform/http/route-definition.ts';
import { TRUCK_PROFILES } from '#shared/sandbox/domain/profiles.ts';
import { breadcrumbSchema } from '#shared/tracking/api/schemas.ts';

const OPENAPI_FILE = fileURLToPath(new URL('../../../openapi.json', import.meta.url));

type Json = Record<string, unknown>;
const HTTP_METHODS = ['get', 'post', 'patch', 'put', 'delete'];

const routeCases = routeList.map((route) => [route.operationId, route] as const);

/** The examples of a route, or a failure that says where to add them. */
function examplesOf(route: RouteDefinition): OperationExamples {
  const examples = operationExamples[route.operationId];
  expect(
    examples,
    `${route.operationId} (${route.method} ${route.path}) has no examples: add an entry to its feature's ` +
      'module in shared/<feature>/api/examples.ts and spread the module into shared/api/examples.ts (docs/openapi.md)',
  ).toBeDefined();
  return examples as OperationExamples;
}

function expectParses(schema: z.core.$ZodType, value: unknown, what: string) {
  const result = z.safeParse(schema, value);
  expect(result.error?.issues ?? [], what).toEqual([]);
  return result.data;
}

/** Every value in an example tree with the member name it sits under. */
function* members(value: unknown, key = ''): Generator<[string, unknown]> {
  yield [key, value];
  if (Array.isArray(value)) for (const item of value) yield* members(item, key);
  else if (typeof value === 'object' && value !== null) {
    for (const [name, member] of Object.entries(value)) yield* members(member, name);
  }
}

function allExampleValues(): [string, unknown][] {
  return Object.values(operationExamples).flatMap((examples) => [
    ...members(examples.request),
    ...members(examples.responses),
    ...(examples.problem ? members(problemExample(examples.problem, OPENAPI_SERVER_PLACEHOLDER)) : []),
  ]);
}

describe('operation examples (shared/<feature>/api/examples.ts)', () => {
  it('name only operations of the route table', () => {
    const operationIds = routeList.map((route) => route.operationId);
    expect(Object.keys(operationExamples).filter((id) => !operationIds.includes(id))).toEqual([]);
  });

  it.each(routeCases)('%s: the request example parses with the route’s schemas', (_, route) => {
    const { request = {} } = examplesOf(route);
    const { params, query, body, publishedBody } = route.request;

    // An example for a part the route does not take would be published for nothing.
    if (!params) expect(request.params, 'params example without path parameters').toBeUndefined();
    if (!query) expect(request.query, 'query example without a query schema').toBeUndefined();
    if (!body) expect(request.body, 'body example without a body schema').toBeUndefined();

    if (params) expectParses(params, request.params, `${route.operationId} params example`);
    if (query) expectParses(query, request.query, `${route.operationId} query example`);
    if (body) {
      expect(request.body, `${route.operationId} has a body but no body example`).toBeDefined();
      expectParses(body, request.body, `${route.operationId} body example`);
      if (publishedBody) expectParses(publishedBody, request.body, `${route.operationId} published body`);
    }
  });

  it.each(routeCases)('%s: each success example is exactly the response schema', (_, route) => {
    const { responses = {} } = examplesOf(route);
    const declared = route.responses.map((response) => String(response.status));

    expect(Object.keys(responses).filter((status) => !declared.includes(status))).toEqual([]);
    for (const response of route.responses) {
      const example = responses[response.status];
      if (response.status === 204) {
        expect(example, `${route.operationId} 204 has no body`).toBeUndefined();
        continue;
      }
      expect(
        example,
        `${route.operationId} has no example for its ${response.status} response`,
      ).toBeDefined();
      if (!response.schema) continue;
      // Parsing drops members the schema does not know: equality also catches an extra member.
      expect(
        expectParses(response.schema, example, `${route.operationId} ${response.status} example`),
      ).toEqual(example);
    }
  });

  it.each(routeCases)('%s: the problem example is one the operation can answer with', (_, route) => {
    const { problem } = examplesOf(route);
    const codes = errorCodesFor(route);

    if (codes.every((code) => code === 'internal_error')) {
      expect(problem).toBeUndefined();
      return;
    }
    expect(problem, `${route.operationId} has no problem example`).toBeInstanceOf(ApiError);
    const body = problemExample(problem as ApiError, OPENAPI_SERVER_PLACEHOLDER);
    expect(codes, `${route.operationId} documents no ${body.code}`).toContain(body.code);
    expect(expectParses(problemSchema, body, `${route.operationId} problem example`)).toEqual(body);
  });

  it('publish the breadcrumbs of the batch example as valid Breadcrumbs, item by item', () => {
    const body = operationExamples.ingestLocations?.request?.body as { locations: unknown[] };

    expect(body.locations.length).toBeGreaterThan(1);
    for (const [index, item] of body.locations.entries()) {
      expectParses(breadcrumbSchema, item, `locations.${index}`);
    }
  });

  it('look real: coordinates at the API’s 5 decimals, ids with their prefix, times in 2026', () => {
    const prefixes = Object.values(ID_PREFIXES).join('|');
    const values = allExampleValues();

    const coordinates = values.filter(([key]) => key === 'latitude' || key === 'longitude');
    expect(coordinates.length).toBeGreaterThan(10);
    for (const [key, value] of coordinates) {
      // Query examples hold the coordinate as the URL spells it.
      const coordinate = Number(value);
      expect(roundCoordinate(coordinate), key).toBe(coordinate);
    }

    // A vehicle path also takes `ext:<external_ref>`, which some examples show on purpose. The
    // sandbox snapshot's `profile.id` names a truck profile, and health checks are named by their
    // published check id (`breadcrumb_cadence`): neither is a resource id.
    const namedNotIds = new Set<unknown>([
      ...TRUCK_PROFILES.map((p) => p.id),
      ...CHECKS.map((check) => check.id),
    ]);
    const ids = values.filter(
      ([key, value]) =>
        typeof value === 'string' &&
        (key === 'id' || key.endsWith('_id')) &&
        !value.startsWith('ext:') &&
        !namedNotIds.has(value),
    );
    for (const [key, value] of ids) {
      expect(value, key).toMatch(new RegExp(`^(${prefixes})_[0-9A-HJKMNP-TV-Z]{26}$`));
    }

    const times = values.filter(
      ([, value]) => typeof value === 'string' && /^\d{4}-\d\d-\d\dT\d\d:\d\d/.test(value),
    );
    expect(times.length).toBeGreaterThan(10);
    for (const [key, value] of times) expect(value, key).toMatch(/^2026-/);
  });
});

describe('openapi.json examples', () => {
  const committed = JSON.parse(readFileSync(OPENAPI_FILE, 'utf8')) as Json;
  const operations = Object.entries(committed.paths as Json).flatMap(([path, item]) =>
    Object.entries(item as Json)
      .filter(([method]) => HTTP_METHODS.includes(method))
      .map(([method, operation]) => [`${method.toUpperCase()} ${path}`, operation as Json] as const),
  );

  it('covers every operation of the route table', () => {
    expect(operations.length).toBe(routeList.length);
  });

  it.each(operations)('%s carries examples for its request, success and main problem', (_, operation) => {
    const parameters = ((operation.parameters ?? []) as Json[]).filter((p) => p.in === 'path');
    for (const parameter of parameters) expect(parameter.example, String(parameter.name)).toBeDefined();

    const body = operation.requestBody as Json | undefined;
    if (body) {
      const media = (body.content as Json)['application/json'] as Json;
      expect(media.example, 'request body example').toBeDefined();
    }

    const responses = Object.entries(operation.responses as Json);
    for (const [status, response] of responses.filter(([status]) => status.startsWith('2'))) {
      const content = (response as Json).content as Json | undefined;
      // Whatever the media type (JSON, or the guide's text/markdown), the success has an example.
      for (const media of Object.values(content ?? {})) {
        expect((media as Json).example, `${status} example`).toBeDefined();
      }
    }

    const problems = responses.filter(([status]) => Number(status) >= 400 && status !== '500');
    if (problems.length === 0) return;
    const withExample = problems.filter(([, response]) => {
      const content = (response as Json).content as Json | undefined;
      return content && (content['application/problem+json'] as Json).example !== undefined;
    });
    expect(
      withExample.map(([status]) => status),
      'a problem example',
    ).toHaveLength(1);
  });

  it('is validated against the document’s own JSON Schemas by the Redocly lint (a wrong example fails it)', async () => {
    // Arrange: a route whose examples break its schemas, in the request and in the response.
    const route = defineRoute({
      operationId: 'createThing',
      method: 'POST',
      path: '/v1/things',
      summary: 'Create a thing (synthetic)',
      tags: ['Routes'],
      access: 'fleet',
      scope: 'vehicles:manage',
      family: 'routes',
      role: 'api',
      idempotent: false,
      request: { body: z.strictObject({ name: z.string() }).meta({ id: 'ThingRequest' }) },
      responses: [{ status: 201, description: 'Created', schema: z.object({ id: z.string() }) }],
      handler: 'functions/http/things/create-thing.ts',
    });
    const document = buildOpenApiDocument([route], {
      createThing: { request: { body: { name: 42 } }, responses: { 201: { id: 'x', colour: 'red' } } },
    });

    // Act
    const problems = await lintFromString({
      source: serializeOpenApiDocument(document),
      absoluteRef: 'synthetic.json',
      config: await createConfig({ extends: ['recommended-strict'] }),
    });

    // Assess
    const invalid = problems.filter((p) => p.ruleId === 'no-invalid-media-type-examples');
    expect(invalid.map((p) => p.location[0]?.pointer)).toEqual([
      '#/paths/~1v1~1things/post/requestBody/content/application~1json/example/name',
      '#/paths/~1v1~1things/post/responses/201/content/application~1json/example/colour',
    ]);
  });
});

describe('openapi.json query parameters', () => {
  const document = JSON.parse(serializeOpenApiDocument(buildOpenApiDocument())) as Json;
  const withQuery = routeList.filter((route) => route.request.query);

  it.each(withQuery.map((route) => [route.operationId, route] as const))(
    '%s: required exactly when the schema refuses it absent, never nullable',
    (_, route) => {
      const operation = ((document.paths as Json)[route.path] as Json)[route.method.toLowerCase()] as Json;
      const query = ((operation.parameters ?? []) as Json[]).filter((p) => p.in === 'query');
      const shape = route.request.query?._zod.def.shape ?? {};

      expect(query.map((p) => p.name).toSorted()).toEqual(Object.keys(shape).toSorted());
      for (const parameter of query) {
        const field = shape[String(parameter.name)] as z.core.$ZodType;
        expect(parameter.required, String(parameter.name)).toBe(!z.safeParse(field, undefined).success);
        expect([(parameter.schema as Json).type].flat(), String(parameter.name)).not.toContain('null');
      }
    },
  );

  it('marks the stations query point required', () => {
    const operation = ((document.paths as Json)['/v1/stations'] as Json).get as Json;
    const byName = new Map((operation.parameters as Json[]).map((p) => [p.name, p]));

    for (const name of ['latitude', 'longitude']) {
      expect(byName.get(name)).toMatchObject({ in: 'query', required: true, schema: { type: 'number' } });
    }
    expect(byName.get('radius_miles')).toMatchObject({ required: false });
  });
});
