import { describe, expect, it } from 'vitest';
import { ApiError } from '#shared/platform/errors.ts';
import { CURSOR_TTL_MS, createCursorCodec } from '#shared/table/cursor.ts';

const SCOPE = 'vehicles:flt_01JD7ZK3M4N5P6Q7R8S9T0V1W2:active';
const LAST_KEY = { pk: 'FLEET#flt_01JD7ZK3M4N5P6Q7R8S9T0V1W2', sk: 'VEH#veh_01JD7ZK3M4N5P6Q7R8S9T0V1W4' };
const T0 = Date.UTC(2026, 10, 21, 22, 26, 10, 123);

/** A codec whose clock the test moves. */
function codecAt(signingKey = 'cursor-signing-key') {
  const clock = { now: T0 };
  return { codec: createCursorCodec(signingKey, () => clock.now), clock };
}

function decodeError(decode: () => unknown): ApiError {
  try {
    decode();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw new Error(`expected ApiError, got ${String(error)}`);
  }
  throw new Error('expected decode to throw');
}

/** Rewrites the payload part while keeping the original signature. */
function withPayload(cursor: string, edit: (body: Record<string, unknown>) => void): string {
  const [payload, signature] = cursor.split('.') as [string, string];
  const body = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  edit(body);
  return `${Buffer.from(JSON.stringify(body)).toString('base64url')}.${signature}`;
}

describe('cursor codec round trip', () => {
  it('gives back the last key it was given, for the same list', () => {
    // Prepare
    const { codec } = codecAt();

    // Act
    const cursor = codec.encode(SCOPE, LAST_KEY);
    const decoded = codec.decode(SCOPE, cursor);

    // Assess
    expect(decoded).toEqual(LAST_KEY);
  });

  it('is URL-safe, so it travels in a query string unescaped', () => {
    // Act
    const cursor = codecAt().codec.encode(SCOPE, { ...LAST_KEY, name: 'a/b+c=d?' });

    // Assess
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
  });

  it('still decodes just before the week-long lifetime ends', () => {
    // Prepare
    const { codec, clock } = codecAt();
    const cursor = codec.encode(SCOPE, LAST_KEY);
    clock.now = T0 + CURSOR_TTL_MS - 1;

    // Act / Assess
    expect(codec.decode(SCOPE, cursor)).toEqual(LAST_KEY);
  });
});

describe('cursor codec refuses', () => {
  it('an edited payload under the original signature', () => {
    // Prepare
    const { codec } = codecAt();
    const cursor = withPayload(codec.encode(SCOPE, LAST_KEY), (body) => {
      body.k = { pk: 'FLEET#flt_01JD80000000000000000000ZZ', sk: 'VEH#' };
    });

    // Act
    const error = decodeError(() => codec.decode(SCOPE, cursor));

    // Assess
    expect(error.code).toBe('invalid_cursor');
    expect(error.status).toBe(400);
  });

  it('an extended lifetime under the original signature', () => {
    // Prepare
    const { codec } = codecAt();
    const cursor = withPayload(codec.encode(SCOPE, LAST_KEY), (body) => {
      body.e = Number(body.e) + CURSOR_TTL_MS;
    });

    // Act / Assess
    expect(decodeError(() => codec.decode(SCOPE, cursor)).code).toBe('invalid_cursor');
  });

  it('an edited signature', () => {
    // Prepare
    const { codec } = codecAt();
    const [payload, signature] = codec.encode(SCOPE, LAST_KEY).split('.') as [string, string];
    const flipped = (signature[0] === 'A' ? 'B' : 'A') + signature.slice(1);

    // Act / Assess
    expect(decodeError(() => codec.decode(SCOPE, `${payload}.${flipped}`)).code).toBe('invalid_cursor');
  });

  it('a truncated signature', () => {
    // Prepare
    const { codec } = codecAt();
    const cursor = codec.encode(SCOPE, LAST_KEY);

    // Act / Assess
    expect(decodeError(() => codec.decode(SCOPE, cursor.slice(0, -4))).code).toBe('invalid_cursor');
  });

  it('a cursor signed with another key (another deployment)', () => {
    // Prepare
    const cursor = codecAt('another-signing-key').codec.encode(SCOPE, LAST_KEY);

    // Act / Assess
    expect(decodeError(() => codecAt().codec.decode(SCOPE, cursor)).code).toBe('invalid_cursor');
  });

  it('a cursor from another list or filter', () => {
    // Prepare
    const { codec } = codecAt();
    const cursor = codec.encode(SCOPE, LAST_KEY);

    // Act
    const otherFilter = decodeError(() =>
      codec.decode('vehicles:flt_01JD7ZK3M4N5P6Q7R8S9T0V1W2:inactive', cursor),
    );
    const otherFleet = decodeError(() =>
      codec.decode('vehicles:flt_01JD80000000000000000000ZZ:active', cursor),
    );

    // Assess
    expect(otherFilter.code).toBe('invalid_cursor');
    expect(otherFleet.code).toBe('invalid_cursor');
  });

  it('a cursor past its lifetime', () => {
    // Prepare
    const { codec, clock } = codecAt();
    const cursor = codec.encode(SCOPE, LAST_KEY);
    clock.now = T0 + CURSOR_TTL_MS + 1;

    // Act
    const error = decodeError(() => codec.decode(SCOPE, cursor));

    // Assess
    expect(error.code).toBe('invalid_cursor');
    expect(error.detail).toMatch(/expired/);
  });

  it.each([
    ['empty', ''],
    ['one part', 'abc'],
    ['three parts', 'a.b.c'],
    ['an empty signature', 'eyJzIjoieCJ9.'],
    ['an empty payload', '.AAAAAAAAAAAAAAAAAAAAAA'],
    ['not base64 at all', '%%%.***'],
    ['spaces', '   .   '],
  ])('garbage: %s', (_why, cursor) => {
    // Prepare
    const { codec } = codecAt();

    // Act / Assess
    expect(decodeError(() => codec.decode(SCOPE, cursor)).code).toBe('invalid_cursor');
  });
});
