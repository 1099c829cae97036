import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import { describe, expect, it } from 'vitest';
import * as classic from 'zod';
import * as mini from 'zod/mini';
import { exposeMiniSchemasToOpenApiGenerator } from '#shared/api/openapi-mini-readers.ts';

/** The document zod-to-openapi writes for one request body and one response schema. */
function documentFor(body: unknown, response: unknown) {
  const registry = new OpenAPIRegistry();
  registry.registerPath({
    method: 'post',
    path: '/things',
    request: { body: { content: { 'application/json': { schema: body as classic.ZodType } } } },
    responses: {
      200: { description: 'ok', content: { 'application/json': { schema: response as classic.ZodType } } },
    },
  });
  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: { title: 't', version: '1' },
  });
}

function classicPair() {
  const c = classic;
  const place = c
    .strictObject({
      latitude: c.number().min(-90).max(90),
      name: c.string().trim().min(1).max(200).optional(),
    })
    .meta({ id: 'C_Place' });
  const body = c.strictObject({
    name: c.string().min(1).max(10).meta({ description: 'A name', example: 'x' }),
    count: c.int().min(0).max(500).nullable().optional(),
    ratio: c.number().gt(0).lte(1),
    at: c.iso.datetime({ offset: true }).meta({ description: 'RFC 3339' }),
    kind: c.enum(['a', 'b']).default('a'),
    tags: c.array(c.string().max(20)).min(1).max(5),
    labels: c.record(c.enum(['x', 'y']), c.string()),
    free: c.record(c.string(), c.number()),
    place,
    places: c.array(place).max(3),
    either: c.union([c.literal('one'), c.literal(2)]),
    shape: c.discriminatedUnion('type', [
      c.strictObject({ type: c.literal('circle'), radius: c.number() }),
      c.strictObject({ type: c.literal('square'), side: c.number() }),
    ]),
    email: c.email().optional(),
    limit: c.coerce.number().int().min(1).max(100).default(25).meta({ description: 'Page size' }),
  });
  const response = c
    .object({ id: c.string().meta({ example: 'thg_1' }), nothing: c.null(), when: c.string().nullable() })
    .meta({ id: 'C_Thing', description: 'A thing' });
  return { body, response };
}

function miniPair() {
  const m = mini;
  const place = m
    .strictObject({
      latitude: m.number().check(m.minimum(-90), m.maximum(90)),
      name: m.optional(m.string().check(m.trim(), m.minLength(1), m.maxLength(200))),
    })
    .check(m.meta({ id: 'M_Place' }));
  const body = m.strictObject({
    name: m.string().check(m.minLength(1), m.maxLength(10), m.meta({ description: 'A name', example: 'x' })),
    count: m.optional(m.nullable(m.int().check(m.minimum(0), m.maximum(500)))),
    ratio: m.number().check(m.gt(0), m.lte(1)),
    at: m.iso.datetime({ offset: true }).check(m.meta({ description: 'RFC 3339' })),
    kind: m._default(m.enum(['a', 'b']), 'a'),
    tags: m.array(m.string().check(m.maxLength(20))).check(m.minLength(1), m.maxLength(5)),
    labels: m.record(m.enum(['x', 'y']), m.string()),
    free: m.record(m.string(), m.number()),
    place,
    places: m.array(place).check(m.maxLength(3)),
    either: m.union([m.literal('one'), m.literal(2)]),
    shape: m.discriminatedUnion('type', [
      m.strictObject({ type: m.literal('circle'), radius: m.number() }),
      m.strictObject({ type: m.literal('square'), side: m.number() }),
    ]),
    email: m.optional(m.email()),
    limit: m
      ._default(m.coerce.number().check(m.int(), m.minimum(1), m.maximum(100)), 25)
      .check(m.meta({ description: 'Page size' })),
  });
  const response = m
    .object({
      id: m.string().check(m.meta({ example: 'thg_1' })),
      nothing: m.null(),
      when: m.nullable(m.string()),
    })
    .check(m.meta({ id: 'M_Thing', description: 'A thing' }));
  return { body, response };
}

describe('OpenAPI generation from zod/mini schemas', () => {
  it('writes the same document as for the classic twins (ids aside)', () => {
    exposeMiniSchemasToOpenApiGenerator();
    const c = classicPair();
    const m = miniPair();
    const fromClassic = JSON.stringify(documentFor(c.body, c.response)).replaceAll('C_', '');
    const fromMini = JSON.stringify(documentFor(m.body, m.response)).replaceAll('M_', '');
    expect(fromMini).toBe(fromClassic);
    // the comparison covers the constraints the readers supply, not only the shapes
    expect(fromMini).toContain('"minLength":1,"maxLength":10');
    expect(fromMini).toContain('"type":"integer"');
    expect(fromMini).toContain('"$ref":"#/components/schemas/Place"');
  });

  it('cannot read a mini schema without the readers', () => {
    const m = miniPair();
    const prototype = Object.getPrototypeOf(m.response) as { meta?: unknown };
    const meta = Object.getOwnPropertyDescriptor(prototype, 'meta');
    delete prototype.meta;
    try {
      expect(() => documentFor(m.body, m.response)).toThrow(/meta is not a function/);
    } finally {
      // Test files share zod's classes (unit tests run without per-file isolation): put it back.
      if (meta) Object.defineProperty(prototype, 'meta', meta);
    }
  });
});
