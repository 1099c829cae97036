import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { extendWithoutMeta, parseVehicleRef, vehicleRef } from '#shared/api/common-schemas.ts';
import { createFleetBody, updateFleetBody, updateFleetSettingsBody } from '#shared/fleets/api/schemas.ts';
import { fuelingItemSchema } from '#shared/fuelings/api/schemas.ts';
import { startGuidanceBody } from '#shared/guidance/api/schemas.ts';
import { breadcrumbSchema } from '#shared/tracking/api/schemas.ts';
import { updateTripBody } from '#shared/trips/api/schemas.ts';
import { createRouteBody } from '#shared/truck-routes/api/schemas.ts';
import { createVehicleBody, updateVehicleBody } from '#shared/vehicles/api/schemas.ts';

const VALID_VIN = '1XKYDP9X4NJ123456';

function issuePaths(result: { success: boolean; error?: { issues: { path: PropertyKey[] }[] } }) {
  return (result.error?.issues ?? []).map((issue) => issue.path.map(String).join('.'));
}

describe('createVehicleBody', () => {
  it('needs only external_ref, trimmed', () => {
    // Act
    const result = createVehicleBody.safeParse({ external_ref: '  TRUCK-1  ' });

    // Assess
    expect(result.success).toBe(true);
    expect(result.data).toEqual({ external_ref: 'TRUCK-1' });
  });

  it('refuses a body without external_ref', () => {
    // Act
    const result = createVehicleBody.safeParse({ name: 'Truck one' });

    // Assess
    expect(issuePaths(result)).toEqual(['external_ref']);
  });

  it('stores a VIN in upper case, whatever case it was sent in', () => {
    // Act
    const result = createVehicleBody.safeParse({ external_ref: 'T1', vin: ` ${VALID_VIN.toLowerCase()} ` });

    // Assess
    expect(result.data?.vin).toBe(VALID_VIN);
  });

  it.each([
    ['an I', '1XKYDP9X4NJ12345I'],
    ['an O', '1XKYDP9X4NJ12345O'],
    ['a Q', '1XKYDP9X4NJ12345Q'],
    ['a lower-case o (checked after upper-casing)', '1xkydp9x4nj12345o'],
    ['16 characters', VALID_VIN.slice(1)],
    ['18 characters', `${VALID_VIN}7`],
    ['a dash', '1XKYDP9X4-J123456'],
  ])('refuses a VIN with %s', (_why, vin) => {
    // Act
    const result = createVehicleBody.safeParse({ external_ref: 'T1', vin });

    // Assess
    expect(issuePaths(result)).toEqual(['vin']);
  });

  it.each([0, -1, 4.9, 401, 950])('refuses tank_size_gallons of %d', (tank) => {
    // Act
    const result = createVehicleBody.safeParse({ external_ref: 'T1', tank_size_gallons: tank });

    // Assess
    expect(issuePaths(result)).toEqual(['tank_size_gallons']);
  });

  it('accepts a fractional tank size and mpg', () => {
    // Act
    const result = createVehicleBody.safeParse({
      external_ref: 'T1',
      tank_size_gallons: 150.5,
      estimated_mpg: 6.25,
    });

    // Assess
    expect(result.success).toBe(true);
  });

  it('refuses a tank size sent as a string (JSON bodies are not coerced)', () => {
    // Act
    const result = createVehicleBody.safeParse({ external_ref: 'T1', tank_size_gallons: '150' });

    // Assess
    expect(issuePaths(result)).toEqual(['tank_size_gallons']);
  });

  it('refuses fields it does not know', () => {
    // Act
    const result = createVehicleBody.safeParse({ external_ref: 'T1', merged_with_existing: true });

    // Assess
    expect(result.success).toBe(false);
  });
});

describe('updateVehicleBody', () => {
  it('lets null clear an optional field, but not the external_ref', () => {
    // Act
    const clears = updateVehicleBody.safeParse({ vin: null, tank_size_gallons: null });
    const clearsRef = updateVehicleBody.safeParse({ external_ref: null });

    // Assess
    expect(clears.data).toEqual({ vin: null, tank_size_gallons: null });
    expect(issuePaths(clearsRef)).toEqual(['external_ref']);
  });
});

describe('createFleetBody', () => {
  const fleet = { name: 'Acme Freight', timezone: 'America/Chicago', contact_email: 'ops@acme.example' };

  it('accepts a name, an IANA zone and a contact email', () => {
    // Act
    const result = createFleetBody.safeParse(fleet);

    // Assess
    expect(result.success).toBe(true);
  });

  it.each(['UTC', 'Europe/Berlin', 'America/Argentina/Buenos_Aires', 'US/Central'])(
    'accepts the zone name %s',
    (timezone) => {
      // Act / Assess
      expect(createFleetBody.safeParse({ ...fleet, timezone }).success).toBe(true);
    },
  );

  it("stores a zone in the runtime's canonical spelling, whatever case it was sent in", () => {
    // Act
    const result = createFleetBody.parse({ ...fleet, timezone: 'america/chicago' });

    // Assess
    expect(result.timezone).toBe('America/Chicago');
  });

  it.each(['Mars/Base', '+05:00', 'UTC+5', 'GMT-06:00', 'Central Standard Time', ''])(
    'refuses %j, which is no IANA zone name',
    (timezone) => {
      // Act
      const result = createFleetBody.safeParse({ ...fleet, timezone });

      // Assess
      expect(new Set(issuePaths(result))).toEqual(new Set(['timezone']));
    },
  );

  it('requires a timezone', () => {
    // Act
    const result = createFleetBody.safeParse({ name: 'Acme Freight' });

    // Assess
    expect(issuePaths(result)).toEqual(['timezone']);
  });

  it.each(['ops', 'ops@', '@acme.example', 'ops at acme.example'])(
    'refuses the contact email %j',
    (email) => {
      // Act
      const result = createFleetBody.safeParse({ ...fleet, contact_email: email });

      // Assess
      expect(issuePaths(result)).toEqual(['contact_email']);
    },
  );

  it('refuses a blank name', () => {
    // Act
    const result = createFleetBody.safeParse({ ...fleet, name: '   ' });

    // Assess
    expect(issuePaths(result)).toEqual(['name']);
  });

  it('has no timezone to change afterwards (given on create only)', () => {
    // Act
    const result = updateFleetBody.safeParse({ timezone: 'Europe/Berlin' });

    // Assess
    expect(result.success).toBe(false);
  });
});

describe('vehicleRef', () => {
  it.each(['veh_01JD7ZK3M4N5P6Q7R8S9T0V1W4', 'ext:TRUCK-1', 'ext:unit 7/north'])('accepts %s', (value) => {
    // Act / Assess
    expect(vehicleRef.safeParse(value).success).toBe(true);
  });

  it.each([
    ['an empty external_ref', 'ext:'],
    ['a blank external_ref', 'ext:   '],
    ['a fleet id', 'flt_01JD7ZK3M4N5P6Q7R8S9T0V1W2'],
    ['a bare external_ref without ext:', 'TRUCK-1'],
    ['a lower-case vehicle id', 'veh_01jd7zk3m4n5p6q7r8s9t0v1w4'],
  ])('refuses %s, marked as a public-id problem', (_why, value) => {
    // Act
    const result = vehicleRef.safeParse(value);

    // Assess
    expect(result.success).toBe(false);
    const issue = result.error?.issues[0] as { params?: { publicId?: string } } | undefined;
    expect(issue?.params?.publicId).toBe('veh');
  });

  it('parses either form into what the lookup needs', () => {
    // Act / Assess
    expect(parseVehicleRef('veh_01JD7ZK3M4N5P6Q7R8S9T0V1W4')).toEqual({
      kind: 'id',
      id: 'veh_01JD7ZK3M4N5P6Q7R8S9T0V1W4',
    });
    expect(parseVehicleRef('ext: TRUCK-1 ')).toEqual({ kind: 'external_ref', externalRef: 'TRUCK-1' });
  });
});

describe('min_arrival_fuel_percent (guidance starts and routes)', () => {
  const denver = { latitude: 39.7392, longitude: -104.9903 };
  const manualRoute = {
    origin: { latitude: 41.8781, longitude: -87.6298 },
    destination: denver,
    tank_size_gallons: 200,
    estimated_mpg: 6.5,
    fuel_level_percent: 30,
  };

  it('may be omitted: a destination alone starts guidance, and a route needs no margin', () => {
    // Act
    const guidance = startGuidanceBody.safeParse({ destination: denver });
    const route = createRouteBody.safeParse(manualRoute);

    // Assess
    expect(guidance.success).toBe(true);
    expect(guidance.data?.min_arrival_fuel_percent).toBeUndefined();
    expect(route.success).toBe(true);
    expect(route.data?.min_arrival_fuel_percent).toBeUndefined();
  });

  it.each([0, 15, 100])('accepts %s', (value) => {
    // Act / Assess
    expect(
      startGuidanceBody.safeParse({ destination: denver, min_arrival_fuel_percent: value }).success,
    ).toBe(true);
    expect(createRouteBody.safeParse({ ...manualRoute, min_arrival_fuel_percent: value }).success).toBe(true);
  });

  it.each([-1, 100.5, '15', null])('refuses %s naming the field and the range', (value) => {
    // Act
    const guidance = startGuidanceBody.safeParse({ destination: denver, min_arrival_fuel_percent: value });
    const route = createRouteBody.safeParse({ ...manualRoute, min_arrival_fuel_percent: value });

    // Assess
    for (const result of [guidance, route]) {
      expect(issuePaths(result)).toEqual(['min_arrival_fuel_percent']);
      expect(result.error?.issues[0]?.message).toBe('must be a number from 0 to 100');
    }
  });
});

describe("the fleet's default_min_arrival_fuel_percent", () => {
  it('is optional on create and on PATCH /v1/fleets/{id}, required on PATCH /v1/fleet', () => {
    // Act / Assess
    expect(createFleetBody.safeParse({ name: 'Acme', timezone: 'UTC' }).success).toBe(true);
    expect(updateFleetBody.safeParse({}).success).toBe(true);
    expect(issuePaths(updateFleetSettingsBody.safeParse({}))).toEqual([
      'default_min_arrival_fuel_percent',
      'assumed_departure_fuel_percent',
      'fuel_tax_treatment',
      'fuel_program',
      'truck_profile',
    ]);
  });

  it.each([0, 10, 12.5, 50])('accepts %s', (value) => {
    // Act / Assess
    const body = { default_min_arrival_fuel_percent: value };
    expect(createFleetBody.safeParse({ name: 'Acme', timezone: 'UTC', ...body }).data).toMatchObject(body);
    expect(updateFleetBody.safeParse(body).data).toEqual(body);
    expect(updateFleetSettingsBody.safeParse(body).data).toEqual(body);
  });

  it.each([-1, 50.1, 100, '10', null])('refuses %s naming the field and the 0–50 range', (value) => {
    // Act
    const results = [
      updateFleetBody.safeParse({ default_min_arrival_fuel_percent: value }),
      updateFleetSettingsBody.safeParse({ default_min_arrival_fuel_percent: value }),
    ];

    // Assess
    for (const result of results) {
      expect(issuePaths(result)).toEqual(['default_min_arrival_fuel_percent']);
      expect(result.error?.issues[0]?.message).toBe('must be a number from 0 to 50');
    }
  });

  it('PATCH /v1/fleet changes the settings only: name and contact stay with the partner', () => {
    // Act
    const result = updateFleetSettingsBody.safeParse({ default_min_arrival_fuel_percent: 20, name: 'Mine' });

    // Assess
    expect(result.success).toBe(false);
  });
});

describe("the fleet's assumed_departure_fuel_percent", () => {
  it.each([0, 37.5, 100])(
    'accepts %s on create, on PATCH /v1/fleets/{id} and alone on PATCH /v1/fleet',
    (value) => {
      // Act / Assess
      const body = { assumed_departure_fuel_percent: value };
      expect(createFleetBody.safeParse({ name: 'Acme', timezone: 'UTC', ...body }).data).toMatchObject(body);
      expect(updateFleetBody.safeParse(body).data).toEqual(body);
      expect(updateFleetSettingsBody.safeParse(body).data).toEqual(body);
    },
  );

  it.each([-1, 100.1, '100', null])('refuses %s naming the field and the 0–100 range', (value) => {
    // Act
    const results = [
      createFleetBody.safeParse({ name: 'Acme', timezone: 'UTC', assumed_departure_fuel_percent: value }),
      updateFleetBody.safeParse({ assumed_departure_fuel_percent: value }),
      updateFleetSettingsBody.safeParse({ assumed_departure_fuel_percent: value }),
    ];

    // Assess
    for (const result of results) {
      expect(issuePaths(result)).toEqual(['assumed_departure_fuel_percent']);
      expect(result.error?.issues[0]?.message).toBe('must be a number from 0 to 100');
    }
  });
});

describe("the fleet's and the vehicle's fuel_tax_treatment", () => {
  const TREATMENT_MESSAGE =
    'must be ifta (price a gallon net of the state tax credited on the IFTA return) or pump (the pump price less the fleet’s discount)';

  it.each(['ifta', 'pump'])('accepts %s on the fleet (create, both PATCHes) and the vehicle', (value) => {
    // Act / Assess
    const body = { fuel_tax_treatment: value };
    expect(createFleetBody.safeParse({ name: 'Acme', timezone: 'UTC', ...body }).data).toMatchObject(body);
    expect(updateFleetBody.safeParse(body).data).toEqual(body);
    expect(updateFleetSettingsBody.safeParse(body).data).toEqual(body);
    expect(createVehicleBody.safeParse({ external_ref: 'T1', ...body }).data).toMatchObject(body);
    expect(updateVehicleBody.safeParse(body).data).toEqual(body);
  });

  it('a vehicle may clear its override with null (then the fleet’s applies); a fleet may not', () => {
    // Act / Assess
    expect(updateVehicleBody.safeParse({ fuel_tax_treatment: null }).data).toEqual({
      fuel_tax_treatment: null,
    });
    expect(issuePaths(updateFleetSettingsBody.safeParse({ fuel_tax_treatment: null }))).toEqual([
      'fuel_tax_treatment',
    ]);
  });

  it.each(['IFTA', 'net', '', 1, true])('refuses %s naming the field and both values', (value) => {
    // Act
    const results = [
      createFleetBody.safeParse({ name: 'Acme', timezone: 'UTC', fuel_tax_treatment: value }),
      updateFleetBody.safeParse({ fuel_tax_treatment: value }),
      updateFleetSettingsBody.safeParse({ fuel_tax_treatment: value }),
      createVehicleBody.safeParse({ external_ref: 'T1', fuel_tax_treatment: value }),
      updateVehicleBody.safeParse({ fuel_tax_treatment: value }),
    ];

    // Assess
    for (const result of results) {
      expect(issuePaths(result)).toEqual(['fuel_tax_treatment']);
      expect(result.error?.issues[0]?.message).toBe(TREATMENT_MESSAGE);
    }
  });
});

describe('updateTripBody: a fuel stop sent back', () => {
  const fuelStop = {
    id: 'tsp_01JD7ZK3M4N5P6Q7R8S9T0V1W3',
    type: 'fuel',
    sequence: 1,
    fuel: { station: { id: 'stn_01JD7ZK3M4N5P6Q7R8S9T0V1W4' }, price_usd_per_gallon: 3.459, reason: 'x' },
  };

  it('carries the members GET shows through to the use case', () => {
    const result = updateTripBody.safeParse({ stops: [fuelStop] });

    expect(result.success).toBe(true);
    expect(result.data?.stops?.[0]).toMatchObject({ fuel: { price_usd_per_gallon: 3.459, reason: 'x' } });
  });

  it('refuses a member GET does not show, at any depth', () => {
    const extra = { ...fuelStop, fuel: { ...fuelStop.fuel, tip_usd: 1 } };
    const deep = { ...fuelStop, fuel: { station: { id: 'stn_01JD7ZK3M4N5P6Q7R8S9T0V1W4', brand: 'x' } } };

    expect(updateTripBody.safeParse({ stops: [extra] }).success).toBe(false);
    expect(updateTripBody.safeParse({ stops: [deep] }).success).toBe(false);
  });
});

describe('extendWithoutMeta', () => {
  it("adds members without carrying the base's id or description, and keeps its refinements", () => {
    // Prepare
    const base = z.object({ a: z.number() }).check(
      z.refine((value) => value.a > 0, { message: 'a must be positive' }),
      z.meta({ id: 'Base', description: 'the base' }),
    );

    // Act
    const extended = extendWithoutMeta(base, { b: z.string() }).check(z.meta({ id: 'Extended' }));

    // Assess
    expect(z.globalRegistry.get(extended)).toEqual({ id: 'Extended' });
    expect(z.globalRegistry.get(base)).toEqual({ id: 'Base', description: 'the base' });
    expect(extended.safeParse({ a: 1, b: 'x' }).data).toEqual({ a: 1, b: 'x' });
    expect(extended.safeParse({ a: -1, b: 'x' }).error?.issues.map((issue) => issue.message)).toEqual([
      'a must be positive',
    ]);
  });
});

describe('a batch row names its vehicle once', () => {
  const vehicleId = 'veh_01M8694NXM1Z50ESRC0N0MWR76';
  const breadcrumb = { recorded_at: '2026-11-24T08:00:00Z', latitude: 32.7767, longitude: -96.797 };
  const fueling = { fueled_at: '2026-11-24T08:00:00Z', gallons: 100, price_usd_per_gallon: 3.5 };
  const messages = (result: { error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
    (result.error?.issues ?? []).map((issue) => `${issue.path.map(String).join('.')}: ${issue.message}`);

  it.each([
    ['a breadcrumb', breadcrumbSchema, breadcrumb],
    ['a fueling', fuelingItemSchema, fueling],
  ] as const)('%s with neither or both is refused at vehicle_id; with one, accepted', (_, schema, row) => {
    // Act
    const neither = z.safeParse(schema, row);
    const both = z.safeParse(schema, { ...row, vehicle_id: vehicleId, external_ref: 'TRUCK-1' });
    const one = z.safeParse(schema, { ...row, external_ref: 'TRUCK-1' });

    // Assess
    expect(messages(neither)).toEqual(['vehicle_id: send exactly one of vehicle_id or external_ref']);
    expect(messages(both)).toEqual(['vehicle_id: send exactly one of vehicle_id or external_ref']);
    expect(one.success).toBe(true);
  });
});
