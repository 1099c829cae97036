import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { issueMessages, unitOf } from '#shared/platform/validation/issue-messages.ts';

/** The messages the map gives for a parse of `value`, by dotted field. */
function messages(schema: z.ZodType, value: unknown): Record<string, string> {
  const map = issueMessages(value).map;
  const result = schema.safeParse(value, { error: map });
  if (result.success) throw new Error('expected the parse to fail');
  return Object.fromEntries(result.error.issues.map((issue) => [issue.path.join('.'), issue.message]));
}

describe('issueMessages: what a person reads instead of zod defaults', () => {
  it('says "is required" for a missing field, and "must be <type>" for a wrong one', () => {
    // Prepare
    const schema = z.object({
      a: z.string(),
      b: z.number(),
      c: z.boolean(),
      d: z.number().int(),
      e: z.array(z.string()),
    });

    // Act / Assess
    expect(messages(schema, {})).toEqual({
      a: 'is required',
      b: 'is required',
      c: 'is required',
      d: 'is required',
      e: 'is required',
    });
    expect(messages(schema, { a: 1, b: 'x', c: 'yes', d: 1.5, e: 'x' })).toEqual({
      a: 'must be a string',
      b: 'must be a number',
      c: 'must be true or false',
      d: 'must be a whole number',
      e: 'must be a list',
    });
  });

  it('says "must be a number" for NaN from a query string, and "is required" when it was not sent', () => {
    // Prepare
    const schema = z.object({ limit: z.coerce.number() });

    // Act / Assess
    expect(messages(schema, { limit: 'ten' })).toEqual({ limit: 'must be a number' });
    expect(messages(schema, {})).toEqual({ limit: 'is required' });
  });

  it('names both ends of a range, with the unit the field name carries', () => {
    // Prepare
    const schema = z.object({
      tank_size_gallons: z.number().min(5).max(400),
      radius_miles: z.number().positive().max(50),
      latitude: z.number().min(-90).max(90),
      count: z.number().int().min(1).max(100),
      floor: z.number().min(3),
    });

    // Act
    const found = messages(schema, {
      tank_size_gallons: 950,
      radius_miles: 0,
      latitude: 91,
      count: 0,
      floor: 1,
    });

    // Assess
    expect(found).toEqual({
      tank_size_gallons: 'must be between 5 and 400 gallons',
      radius_miles: 'must be more than 0 and at most 50 miles',
      latitude: 'must be between -90 and 90 degrees',
      count: 'must be between 1 and 100',
      floor: 'must be at least 3',
    });
  });

  it('lists the accepted values of an enum, and gives lengths of strings and lists', () => {
    // Prepare
    const schema = z.object({
      status: z.enum(['active', 'inactive']),
      name: z.string().trim().min(1).max(5),
      code: z.string().min(3),
      stops: z.array(z.number()).min(1),
      kind: z.literal('fuel'),
    });

    // Act
    const found = messages(schema, { status: 'parked', name: '  ', code: 'ab', stops: [], kind: 'food' });

    // Assess
    expect(found).toEqual({
      status: 'must be one of: active, inactive',
      name: 'must not be empty',
      code: 'must be at least 3 characters',
      stops: 'must not be empty',
      kind: 'must be "fuel"',
    });
  });

  it('gives an example of the date-time and email formats', () => {
    // Prepare
    const schema = z.object({ recorded_at: z.iso.datetime({ offset: true }), contact_email: z.email() });

    // Act / Assess
    expect(messages(schema, { recorded_at: 'yesterday', contact_email: 'nope' })).toEqual({
      recorded_at: 'must be an RFC 3339 date-time, e.g. 2026-11-23T14:05:00Z',
      contact_email: 'must be an email address, e.g. dispatch@example.com',
    });
  });

  it('says latitude and longitude are required together when only one was sent', () => {
    // Prepare
    const point = z.object({ origin: z.object({ latitude: z.number(), longitude: z.number() }) });

    // Act / Assess
    expect(messages(point, { origin: { latitude: 32.9 } })).toEqual({
      'origin.longitude': 'is required: latitude and longitude are required together',
    });
    expect(messages(point, { origin: {} })).toEqual({
      'origin.latitude': 'is required',
      'origin.longitude': 'is required',
    });
  });

  it('reads a union of plain types as their list', () => {
    // Act / Assess
    expect(messages(z.object({ v: z.union([z.string(), z.number()]) }), { v: true })).toEqual({
      v: 'must be a string or a number',
    });
  });

  it("keeps a schema's own message", () => {
    // Act / Assess
    expect(messages(z.object({ vin: z.string().regex(/^\d+$/, 'must be digits') }), { vin: 'x' })).toEqual({
      vin: 'must be digits',
    });
  });

  it('records the fields an object accepts, for suggestions', () => {
    // Prepare
    const value = { tank_size_liters: 1 };
    const map = issueMessages(value);

    // Act
    const result = z
      .strictObject({ tank_size_gallons: z.number().optional() })
      .safeParse(value, { error: map.map });

    // Assess
    expect(result.error?.issues[0]?.message).toBe('is not a recognized field');
    expect(map.knownKeysAt([])).toEqual(['tank_size_gallons']);
  });
});

describe('unitOf', () => {
  it.each([
    ['speed_mph', 'mph'],
    ['heading_degrees', 'degrees'],
    ['longitude', 'degrees'],
    ['fuel_level_percent', 'percent'],
    ['price_usd_per_gallon', 'USD per gallon'],
    ['estimated_mpg', 'mpg'],
    ['limit', null],
  ])('%s → %s', (field, unit) => {
    // Act / Assess
    expect(unitOf(field)).toBe(unit);
  });
});

describe('the global safety net', () => {
  it("gives our messages to a parse of a request schema outside validatePart, not zod's defaults", async () => {
    // Prepare: importing any request schema installs it.
    const { breadcrumbSchema } = await import('#shared/tracking/api/schemas.ts');

    // Act
    const result = breadcrumbSchema.safeParse({
      vehicle_id: 'veh_01JD7ZK3M4N5P6Q7R8S9T0V1W4',
      latitude: 'x',
      colour: 1,
    });

    // Assess
    expect(Object.fromEntries(result.error?.issues.map((i) => [i.path.join('.'), i.message]) ?? [])).toEqual({
      latitude: 'must be a number',
      longitude: 'is required',
      recorded_at: 'is required',
      '': 'is not a recognized field',
    });
  });
});
