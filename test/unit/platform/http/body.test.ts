import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ApiError } from '#shared/platform/errors.ts';
import { parseJsonBody } from '#shared/platform/http/body.ts';
import type { RouteDefinition } from '#shared/platform/http/route-definition.ts';
import { httpEvent } from '#test/unit/fixtures.ts';

type BodyRoute = Pick<RouteDefinition, 'method' | 'request'>;

const requiresBody: BodyRoute = { method: 'POST', request: { body: z.object({ name: z.string() }) } };
const optionalBody: BodyRoute = {
  method: 'POST',
  request: { body: z.object({ event_type: z.string() }), bodyRequired: false },
};
const noBody: BodyRoute = { method: 'POST', request: {} };

function post(body: string | undefined, contentType?: string, isBase64Encoded = false) {
  return httpEvent({
    method: 'POST',
    path: '/v1/things',
    headers: contentType === undefined ? {} : { 'content-type': contentType },
    ...(body === undefined ? {} : { body }),
    isBase64Encoded,
  });
}

function failure(parse: () => unknown): ApiError {
  try {
    parse();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected parseJsonBody to fail');
}

describe('parseJsonBody: 415 unsupported_media_type', () => {
  it('a body without a Content-Type', () => {
    // Act
    const error = failure(() => parseJsonBody(requiresBody, post('{"name":"a"}')));

    // Assess
    expect([error.code, error.status]).toEqual(['unsupported_media_type', 415]);
  });

  it.each(['text/plain', 'application/x-www-form-urlencoded', 'application/jsonp', 'multipart/form-data'])(
    'a body sent as %s',
    (contentType) => {
      // Act
      const error = failure(() => parseJsonBody(requiresBody, post('{"name":"a"}', contentType)));

      // Assess
      expect(error.code).toBe('unsupported_media_type');
      expect(error.detail).toContain(contentType);
    },
  );

  it.each([
    ['no body at all', undefined],
    ['an empty body', ''],
    ['a blank body', '  \n'],
  ])('a route that needs a body, given %s, even with the JSON media type', (_why, body) => {
    // Act
    const error = failure(() => parseJsonBody(requiresBody, post(body, 'application/json')));

    // Assess
    expect([error.code, error.status]).toEqual(['unsupported_media_type', 415]);
  });

  it('a route without a body schema that is sent a non-JSON body anyway', () => {
    // Act
    const error = failure(() => parseJsonBody(noBody, post('stop=1', 'application/x-www-form-urlencoded')));

    // Assess
    expect(error.code).toBe('unsupported_media_type');
  });
});

describe('parseJsonBody: accepted JSON', () => {
  it.each([
    'application/json',
    'application/json; charset=utf-8',
    'Application/JSON;charset=UTF-8',
    'application/merge-patch+json',
    'application/problem+json',
  ])('parses a body sent as %s', (contentType) => {
    // Act
    const body = parseJsonBody(requiresBody, post('{"name":"Acme","n":[1,2.5]}', contentType));

    // Assess
    expect(body).toEqual({ name: 'Acme', n: [1, 2.5] });
  });

  it('decodes a base64-encoded body first (API Gateway does so for binary media)', () => {
    // Prepare
    const encoded = Buffer.from('{"name":"Ünit 7"}', 'utf8').toString('base64');

    // Act
    const body = parseJsonBody(requiresBody, post(encoded, 'application/json', true));

    // Assess
    expect(body).toEqual({ name: 'Ünit 7' });
  });

  it('lets a route with an optional body be called with none, even without a Content-Type', () => {
    // Act / Assess
    expect(parseJsonBody(optionalBody, post(undefined))).toBeUndefined();
    expect(parseJsonBody(noBody, post(''))).toBeUndefined();
  });

  it('still requires JSON when an optional body is sent', () => {
    // Act
    const error = failure(() => parseJsonBody(optionalBody, post('{"event_type":"x"}')));

    // Assess
    expect(error.code).toBe('unsupported_media_type');
  });
});

describe('parseJsonBody: malformed JSON', () => {
  it.each(['{"name":', "{'name':'a'}", '{"name":"a"} trailing', 'NaN'])(
    '%s → 422 validation_failed on the field body',
    (text) => {
      // Act
      const error = failure(() => parseJsonBody(requiresBody, post(text, 'application/json')));

      // Assess
      expect([error.code, error.status]).toEqual(['validation_failed', 422]);
      expect(error.extensions.errors).toHaveLength(1);
      expect(error.extensions.errors?.[0]?.field).toBe('body');
    },
  );

  it('says what is wrong and where in our words, never the parser’s message or a piece of the body', () => {
    // Prepare: V8 would say "Expected double-quoted property name in JSON at position 31".
    const text = '{\n  "external_ref": "TRUCK-042",\n}';

    // Act
    const error = failure(() => parseJsonBody(requiresBody, post(text, 'application/json')));

    // Assess
    expect(error.detail).toBe(
      'The request body is not valid JSON: a property name in double quotes was expected at line 3, column 1.',
    );
    expect(error.hint).toBe('send one JSON object; fix the body at line 3, column 1');
    expect(error.extensions.errors).toEqual([
      {
        field: 'body',
        message: 'is not valid JSON: a property name in double quotes was expected at line 3, column 1',
      },
    ]);
    expect(JSON.stringify(error)).not.toMatch(/TRUCK-042|position|Expected double-quoted/);
  });

  it.each([
    ['sent as text', (json: string) => post(`\uFEFF${json}`, 'application/json')],
    [
      'sent base64-encoded (a binary body through API Gateway)',
      (json: string) =>
        post(
          Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(json)]).toString('base64'),
          'application/json',
          true,
        ),
    ],
  ])('says a body that starts with a byte-order mark does, and how to send it (%s)', (_how, event) => {
    // Act
    const error = failure(() => parseJsonBody(requiresBody, event('{"name":"MARKER-7"}')));

    // Assess
    expect([error.code, error.status]).toEqual(['validation_failed', 422]);
    expect(error.detail).toBe('The request body starts with a byte-order mark (U+FEFF) before the JSON.');
    expect(error.hint).toBe('send the body as UTF-8 without a byte-order mark');
    expect(error.extensions.errors).toEqual([
      { field: 'body', message: 'must not start with a byte-order mark' },
    ]);
    expect(JSON.stringify(error)).not.toContain('MARKER-7');
  });
});
