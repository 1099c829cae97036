import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { routeList } from '#shared/api/route-table.ts';
import { createHttpHandler } from '#shared/platform/http/handler.ts';
import type { RouteDefinition } from '#shared/platform/http/route-definition.ts';
import { ok } from '#shared/platform/http/types.ts';
import { logger } from '#shared/platform/observability.ts';
import { parseItem } from '#shared/platform/validation/batch-items.ts';
import { breadcrumbSchema } from '#shared/tracking/api/schemas.ts';
import {
  fakePlatformDeps,
  GRANTED_FLEET_ID,
  httpEvent,
  LIVE_KEY,
  lambdaContext,
  PARTNER_ID,
  partnerKeyRecord,
} from '../fixtures.ts';

/**
 * No zod default message ever reaches a response: every route of the route table is driven through
 * the real handler chain with malformed path parameters, query parameters and bodies generated from
 * its own schemas (missing fields, wrong types, NaN, out-of-range values, unknown fields, nested
 * ones too), and every problem's detail, hint and field messages are checked against zod's wording.
 * A route or schema added later is swept without touching this test. Batch items, validated one by
 * one inside the use case, are swept through parseItem with the item schemas below.
 */
const BATCH_ITEM_SCHEMAS: Record<string, z.core.$ZodType> = { breadcrumb: breadcrumbSchema };

/** zod 4's English defaults: "Invalid input: expected number, received NaN", "Too big: …", … */
const ZOD_DEFAULT =
  /Invalid (input|option|string|number|ISO|email|URL|UUID|key|element|value)|expected .+, received|\bTo{2} (small|big)\b|Unrecognized keys?:/;

type Schema = z.core.$ZodType;

/** A number schema's bounds as its checks set them (classic's minValue/maxValue; mini has neither). */
function boundsOf(schema: Schema): { min: number; max: number } {
  const bag = schema._zod.bag as Partial<
    Record<'minimum' | 'exclusiveMinimum' | 'maximum' | 'exclusiveMaximum', number>
  >;
  const min = Math.max(
    bag.minimum ?? Number.NEGATIVE_INFINITY,
    bag.exclusiveMinimum ?? Number.NEGATIVE_INFINITY,
  );
  const max = Math.min(
    bag.maximum ?? Number.POSITIVE_INFINITY,
    bag.exclusiveMaximum ?? Number.POSITIVE_INFINITY,
  );
  return { min, max };
}
const defOf = (schema: Schema) =>
  (schema as unknown as { def: Record<string, unknown> & { type: string } }).def;

/** The schema inside optional/nullable/default/pipe wrappers. */
function core(schema: Schema): Schema {
  const def = defOf(schema);
  if (
    ['optional', 'nullable', 'default', 'prefault', 'readonly', 'nonoptional', 'catch'].includes(def.type)
  ) {
    return core(def.innerType as Schema);
  }
  if (def.type === 'pipe') return core(def.in as Schema);
  return schema;
}

/** A value the schema probably accepts (its example when it has one), to put bad values next to. */
function sample(schema: Schema): unknown {
  const example = z.globalRegistry.get(schema)?.example ?? z.globalRegistry.get(core(schema))?.example;
  if (example !== undefined) return example;
  const inner = core(schema);
  const def = defOf(inner);
  switch (def.type) {
    case 'object':
      return Object.fromEntries(
        Object.entries(def.shape as Record<string, Schema>).map(([key, field]) => [key, sample(field)]),
      );
    case 'number': {
      const bounds = boundsOf(inner).min;
      return Number.isFinite(bounds) ? Math.max(bounds, 1) : 1;
    }
    case 'boolean':
      return true;
    case 'array':
      return [sample(def.element as Schema)];
    case 'enum':
      return Object.values(def.entries as Record<string, string>)[0];
    case 'literal':
      return (def.values as unknown[])[0];
    default:
      return 'TRUCK-042';
  }
}

/** Bad values for one field, by its type: each should be refused in words a person can act on. */
function badValues(schema: Schema, asQuery: boolean): unknown[] {
  const inner = core(schema);
  const def = defOf(inner);
  const common = asQuery ? ['', 'NaN', 'x'.repeat(5000)] : [null, 'x'.repeat(5000), { nested: true }, [1]];
  switch (def.type) {
    case 'number': {
      const number = boundsOf(inner);
      const out = [
        asQuery ? 'abc' : 'abc',
        asQuery ? 'Infinity' : true,
        !Number.isFinite(number.min) ? -1e12 : number.min - 1,
        !Number.isFinite(number.max) ? 1e12 : number.max + 1,
        1.5,
      ];
      return [...common, ...out.map((value) => (asQuery ? String(value) : value))];
    }
    case 'string':
      return [...common, ...(asQuery ? [' '] : [42, '', ' ', false])];
    case 'enum':
    case 'literal':
      return [...common, 'not_one_of_them', ...(asQuery ? [] : [7])];
    case 'boolean':
      return [...common, asQuery ? 'maybe' : 'yes'];
    case 'array':
      return [...common, [], 'not a list'];
    case 'object':
      return [...common, 'not an object', 5, {}];
    default:
      return [...common, 7, 'x'];
  }
}

/** Each variant: one field (possibly nested) replaced by a bad value, or removed, or an extra one. */
function variants(schema: Schema | undefined, asQuery: boolean): unknown[] {
  if (!schema) return asQuery ? [{ radius_km: '80' }, { cursor: 'x' }] : [];
  const base = sample(schema) as Record<string, unknown>;
  const out: unknown[] = [{}, { ...base, totally_unknown_field: 1 }, { ...base, tank_size_liters: 950 }];
  if (!asQuery) out.push([], 'just a string', 12, null);
  const walk = (
    shape: Schema,
    value: Record<string, unknown>,
    rebuild: (v: Record<string, unknown>) => unknown,
  ) => {
    const def = defOf(core(shape));
    if (def.type !== 'object') return;
    for (const [key, field] of Object.entries(def.shape as Record<string, Schema>)) {
      const { [key]: _removed, ...without } = value;
      out.push(rebuild(without));
      for (const bad of badValues(field, asQuery)) out.push(rebuild({ ...value, [key]: bad }));
      out.push(rebuild({ ...value, [`${key}x`]: 1 }));
      const nested = value[key];
      if (nested && typeof nested === 'object' && !Array.isArray(nested)) {
        walk(field, nested as Record<string, unknown>, (v) => rebuild({ ...value, [key]: v }));
      }
    }
  };
  walk(schema, base, (v) => v);
  return out;
}

function pathOf(route: RouteDefinition, params: Record<string, unknown>): string {
  return route.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(String(params[name])));
}

function harness(route: RouteDefinition) {
  const deps = fakePlatformDeps({
    keys: { [LIVE_KEY]: partnerKeyRecord() },
    grants: [`${PARTNER_ID}/${GRANTED_FLEET_ID}`],
  });
  // Idempotency is not about messages (and needs DynamoDB): the replay store is left out.
  const handler = createHttpHandler(
    { ...route, idempotent: false },
    async () => ok({}),
    () => deps,
  );
  const headers: Record<string, string> = {
    authorization: `Bearer ${LIVE_KEY}`,
    'content-type': 'application/json',
  };
  if (route.access === 'fleet' || route.access === 'fleetOrPartner') headers['svc-fleet'] = GRANTED_FLEET_ID;
  const goodParams = route.request.params ? (sample(route.request.params) as Record<string, unknown>) : {};
  const goodBody = route.request.body ? sample(route.request.body) : undefined;
  return async (input: { params?: unknown; query?: unknown; body?: unknown }) => {
    const params = (input.params ?? goodParams) as Record<string, unknown>;
    const bodyValue = 'body' in input ? input.body : goodBody;
    const response = await handler(
      httpEvent({
        method: route.method,
        path: pathOf(route, params),
        headers,
        pathParameters: route.request.params
          ? (Object.fromEntries(Object.entries(params).map(([k, v]) => [k, String(v)])) as Record<
              string,
              string
            >)
          : undefined,
        queryStringParameters: input.query as Record<string, string> | undefined,
        body: bodyValue === undefined ? undefined : JSON.stringify(bodyValue),
      }),
      lambdaContext(),
    );
    return { status: response.statusCode, text: String(response.body ?? '') };
  };
}

/** Every message in a problem (detail, hint, field messages), for the check. */
function messagesOf(text: string): string[] {
  if (!text) return [];
  const problem = JSON.parse(text) as { detail?: string; hint?: string; errors?: { message: string }[] };
  return [problem.detail ?? '', problem.hint ?? '', ...(problem.errors ?? []).map((e) => e.message)];
}

beforeEach(() => {
  vi.spyOn(logger, 'error').mockImplementation(() => {});
  vi.spyOn(logger, 'warn').mockImplementation(() => {});
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe('the detector', () => {
  it("recognizes zod's own default messages (so a pass below means something)", () => {
    // Prepare
    const schema = z.strictObject({ a: z.number().max(5), b: z.enum(['x', 'y']), c: z.iso.datetime() });

    // zod's English defaults, asked for explicitly: the request schemas install our messages globally.
    const english = { error: z.locales.en().localeError };

    // Act
    const defaults = [
      ...(schema.safeParse({ a: 9, b: 'q', c: 'no', d: 1 }, english).error?.issues ?? []),
      ...(schema.safeParse({ a: Number.NaN }, english).error?.issues ?? []),
    ].map((issue) => issue.message);

    // Assess
    expect(defaults.length).toBeGreaterThanOrEqual(6);
    for (const message of defaults) expect(message).toMatch(ZOD_DEFAULT);
  });
});

describe.each(routeList.map((route) => [`${route.method} ${route.path}`, route] as const))(
  'no zod default message: %s',
  (_name, route) => {
    it('for malformed path parameters, query parameters and bodies', async () => {
      // Prepare
      const send = harness(route);
      const cases: { params?: unknown; query?: unknown; body?: unknown }[] = [
        ...variants(route.request.params, true).map((params) => ({ params })),
        ...variants(route.request.query, true).map((query) => ({ query })),
        ...variants(route.request.body, false).map((body) => ({ body })),
      ];

      // Act
      const responses = await Promise.all(cases.map((input) => send(input)));

      // Assess
      const refused = responses.filter((r) => r.status === 400 || r.status === 422);
      expect(refused.length).toBeGreaterThan(0);
      for (const response of responses) {
        expect(response.status, response.text).toBeLessThan(500);
        for (const message of messagesOf(response.text))
          expect(message, response.text).not.toMatch(ZOD_DEFAULT);
      }
    });
  },
);

describe.each(Object.entries(BATCH_ITEM_SCHEMAS))(
  'no zod default message: %s batch items',
  (_name, schema) => {
    it('for malformed items', () => {
      // Act
      const problems = variants(schema, false).flatMap((item) => {
        const parsed = parseItem(schema, item);
        return parsed.ok ? [] : [parsed.problem];
      });

      // Assess
      expect(problems.length).toBeGreaterThan(20);
      for (const problem of problems) {
        const messages = [problem.hint, ...(problem.errors ?? []).map((e) => e.message)];
        for (const message of messages) expect(message, JSON.stringify(problem)).not.toMatch(ZOD_DEFAULT);
      }
    });
  },
);
