import { describe, expect, it } from 'vitest';
import { ID_PREFIXES, isPublicId, newId, publicIdExample, ulid } from '#shared/kernel/ids.ts';

const CROCKFORD_26 = /^[0-9A-HJKMNP-TV-Z]{26}$/;

describe('ulid', () => {
  it('encodes the milliseconds as the reference ULID time part', () => {
    // Prepare: the ULID specification's example, 1469918176385 ms → "01ARYZ6S41".
    const ms = 1469918176385;

    // Act
    const id = ulid(ms);

    // Assess
    expect(id.slice(0, 10)).toBe('01ARYZ6S41');
    expect(id).toMatch(CROCKFORD_26);
  });

  it('sorts ids made at increasing milliseconds in creation order, across digit carries', () => {
    // Prepare: neighbours of base-32 carries (31→32, 1023→1024) and a span of real dates.
    const times = [
      0,
      1,
      31,
      32,
      33,
      1023,
      1024,
      1_000_000,
      Date.UTC(2026, 0, 1),
      Date.UTC(2026, 10, 21, 22, 26, 10, 123),
      Date.UTC(2026, 10, 21, 22, 26, 10, 124),
      2 ** 48 - 1,
    ];
    const ids = times.map((ms) => ulid(ms));

    // Act
    const sorted = [...ids].sort();

    // Assess
    expect(sorted).toEqual(ids);
  });

  it('keeps creation order among ids made in the same millisecond, and before the next one', () => {
    // Prepare
    const ms = Date.UTC(2026, 10, 21, 22, 26, 10, 123);

    // Act
    const sameMs = Array.from({ length: 1_000 }, () => ulid(ms));
    const next = ulid(ms + 1);

    // Assess
    expect([...sameMs].sort()).toEqual(sameMs);
    expect(next > (sameMs.at(-1) as string)).toBe(true);
    for (const id of sameMs) expect(id).toMatch(CROCKFORD_26);
  });

  it('differs between two ids of the same millisecond (80 random bits)', () => {
    // Act
    const ids = new Set(Array.from({ length: 100 }, () => ulid(Date.UTC(2026, 10, 21))));

    // Assess
    expect(ids.size).toBe(100);
  });
});

describe('newId', () => {
  it.each(Object.entries(ID_PREFIXES))('gives a %s id its %s_ prefix and a ULID', (kind, prefix) => {
    // Act
    const id = newId(kind as keyof typeof ID_PREFIXES, Date.UTC(2026, 10, 21));

    // Assess
    expect(id.startsWith(`${prefix}_`)).toBe(true);
    expect(id.slice(prefix.length + 1)).toMatch(CROCKFORD_26);
    expect(isPublicId(kind as keyof typeof ID_PREFIXES, id)).toBe(true);
  });

  it('uses the spec prefixes for the public resources', () => {
    // Assess: the published prefixes.
    expect(ID_PREFIXES).toMatchObject({
      fleet: 'flt',
      vehicle: 'veh',
      route: 'rte',
      trip: 'trip',
      guidance: 'gd',
      webhookEndpoint: 'whk',
      webhookDelivery: 'whd',
      event: 'evt',
      request: 'req',
    });
  });
});

describe('isPublicId', () => {
  const body = '01JD7ZK3M4N5P6Q7R8S9T0V1W2';

  it('accepts a well-formed id of the kind, and the published example', () => {
    // Assess
    expect(isPublicId('vehicle', `veh_${body}`)).toBe(true);
    expect(isPublicId('trip', `trip_${body}`)).toBe(true);
    expect(isPublicId('fleet', publicIdExample('fleet'))).toBe(true);
  });

  it.each([
    ['another kind’s prefix', `flt_${body}`],
    ['no prefix', body],
    ['an upper-case prefix', `VEH_${body}`],
    ['a lower-case body', `veh_${body.toLowerCase()}`],
    ['25 characters', `veh_${body.slice(1)}`],
    ['27 characters', `veh_${body}0`],
    ['the letter I', `veh_${body.slice(0, 25)}I`],
    ['the letter L', `veh_${body.slice(0, 25)}L`],
    ['the letter O', `veh_${body.slice(0, 25)}O`],
    ['the letter U', `veh_${body.slice(0, 25)}U`],
    ['a dash instead of the underscore', `veh-${body}`],
    ['surrounding whitespace', ` veh_${body} `],
    ['a trailing newline', `veh_${body}\n`],
    ['the empty string', ''],
  ])('rejects a vehicle id with %s', (_why, value) => {
    // Act / Assess
    expect(isPublicId('vehicle', value)).toBe(false);
  });
});
