import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import { describe, expect, it } from 'vitest';
import { meSchema } from '#shared/accounts/api/schemas.ts';
import { meResource } from '#shared/accounts/api/serializers.ts';
import { fleetSchema } from '#shared/fleets/api/schemas.ts';
import { fleetResource } from '#shared/fleets/api/serializers.ts';
import type { Fleet } from '#shared/fleets/domain/fleet.ts';
import { UNSET_TRUCK_PROFILE } from '#shared/fleets/domain/truck-profile.ts';
import { fromFleetItem, toFleetItem } from '#shared/fleets/store/fleets.ts';
import { planCounterfactual, planSavings } from '#shared/fuel-plan/domain/savings.ts';
import { NO_FUEL_PROGRAM } from '#shared/fuel-programs/domain/program.ts';
import { usagePeriod } from '#shared/plans/domain/plans.ts';
import { canonicalJson } from '#shared/platform/http/json.ts';
import { latestLocationSchema } from '#shared/tracking/api/schemas.ts';
import { latestLocationResource } from '#shared/tracking/api/serializers.ts';
import type { LatestPosition } from '#shared/tracking/domain/positions.ts';
import { kmhFromMph } from '#shared/tracking/domain/speed.ts';
import { truckRouteSchema } from '#shared/truck-routes/api/schemas.ts';
import { baselineResource, savingsResource } from '#shared/truck-routes/api/serializers.ts';
import { vehicleSchema } from '#shared/vehicles/api/schemas.ts';
import { vehicleResource } from '#shared/vehicles/api/serializers.ts';
import type { Vehicle } from '#shared/vehicles/domain/vehicle.ts';
import { fromVehicleItem, toVehicleItem } from '#shared/vehicles/store/vehicles.ts';
import {
  companyKeyRecord,
  NOW_MS,
  PARTNER_ID,
  partnerKeyRecord,
  principalOf,
  STARTER_PLAN,
  VEHICLE_ID,
} from '../fixtures.ts';

const FLEET_MEMBERS = [
  'id',
  'name',
  'external_ref',
  'contact_email',
  'timezone',
  'status',
  'default_min_arrival_fuel_percent',
  'assumed_departure_fuel_percent',
  'fuel_tax_treatment',
  'fuel_program',
  'truck_profile',
  'created_at',
  'updated_at',
];
const VEHICLE_MEMBERS = [
  'id',
  'external_ref',
  'linked_external_refs',
  'name',
  'vin',
  'tank_size_gallons',
  'estimated_mpg',
  'license_plate',
  'fuel_tax_treatment',
  'truck_profile',
  'status',
  'created_at',
  'updated_at',
];

const fleet: Fleet = {
  id: 'flt_01JD7ZK3M4N5P6Q7R8S9T0V1W2',
  name: 'Acme Freight',
  externalRef: 'ACME-1',
  contactEmail: 'ops@acme.example',
  timezone: 'America/Chicago',
  status: 'active',
  defaultMinArrivalFuelPercent: 10,
  assumedDepartureFuelPercent: 100,
  fuelTaxTreatment: 'ifta',
  fuelProgram: NO_FUEL_PROGRAM,
  truckProfile: { ...UNSET_TRUCK_PROFILE },
  partnerId: 'ptr_01JD7ZK3M4N5P6Q7R8S9T0V1W3',
  createdAt: '2026-11-21T22:26:10.123000Z',
  updatedAt: '2026-11-21T22:26:10.123000Z',
};

const vehicle: Vehicle = {
  id: 'veh_01JD7ZK3M4N5P6Q7R8S9T0V1W4',
  fleetId: fleet.id,
  externalRef: 'TRUCK-1',
  linkedExternalRefs: [],
  name: 'Truck one',
  vin: '1XKYDP9X4NJ123456',
  tankSizeGallons: 150.5,
  estimatedMpg: 6.25,
  licensePlate: null,
  fuelTaxTreatment: null,
  truckProfile: { ...UNSET_TRUCK_PROFILE },
  status: 'active',
  createdAt: '2026-11-21T22:26:10.123000Z',
  updatedAt: '2026-11-21T22:26:10.123000Z',
  version: 1,
};

/** What a later GET reads: the item as DynamoDB stores it (the document client's options). */
function throughDynamo<T extends Record<string, unknown>>(item: T): Record<string, unknown> {
  return unmarshall(marshall(item, { removeUndefinedValues: true, convertClassInstanceToMap: false }));
}

describe('fleetResource', () => {
  it('writes the members in the documented order', () => {
    // Act
    const members = Object.keys(fleetResource(fleet));

    // Assess
    expect(members).toEqual(FLEET_MEMBERS);
    expect(Object.keys(fleetSchema.shape)).toEqual(FLEET_MEMBERS);
  });

  it('never exposes internal fields (the partner that provisioned the fleet)', () => {
    // Act
    const text = canonicalJson(fleetResource(fleet));

    // Assess
    expect(text).not.toContain(fleet.partnerId as string);
  });

  it.each([
    ['with every optional field', fleet],
    ['with the optional fields empty', { ...fleet, externalRef: null, contactEmail: null, partnerId: null }],
  ])('answers a GET byte for byte like the create response, %s', (_why, record) => {
    // Prepare
    const createResponse = canonicalJson(fleetResource(record));

    // Act
    const getResponse = canonicalJson(
      fleetResource(fromFleetItem(throughDynamo({ ...toFleetItem(record) }))),
    );

    // Assess
    expect(getResponse).toBe(createResponse);
  });
});

describe('fleet items written before default_min_arrival_fuel_percent', () => {
  it('read as 10, and the resource shows it', () => {
    // Prepare
    const { default_min_arrival_fuel_percent: _absent, ...older } = toFleetItem({
      ...fleet,
      defaultMinArrivalFuelPercent: 35,
    });

    // Act
    const read = fromFleetItem(throughDynamo(older));

    // Assess
    expect(read.defaultMinArrivalFuelPercent).toBe(10);
    expect(fleetResource(read).default_min_arrival_fuel_percent).toBe(10);
    expect(
      fromFleetItem(throughDynamo({ ...toFleetItem({ ...fleet, defaultMinArrivalFuelPercent: 35 }) })),
    ).toEqual({
      ...fleet,
      defaultMinArrivalFuelPercent: 35,
    });
  });
});

describe('fleet items written before assumed_departure_fuel_percent', () => {
  it('read as 100 (a full tank), and the resource shows it', () => {
    // Prepare
    const { assumed_departure_fuel_percent: _absent, ...older } = toFleetItem({
      ...fleet,
      assumedDepartureFuelPercent: 60,
    });

    // Act
    const read = fromFleetItem(throughDynamo(older));

    // Assess
    expect(read.assumedDepartureFuelPercent).toBe(100);
    expect(fleetResource(read).assumed_departure_fuel_percent).toBe(100);
    expect(
      fromFleetItem(throughDynamo({ ...toFleetItem({ ...fleet, assumedDepartureFuelPercent: 60 }) })),
    ).toEqual({ ...fleet, assumedDepartureFuelPercent: 60 });
  });
});

describe('fleet items written before fuel_tax_treatment', () => {
  it('read as ifta, the default, and a stored pump survives the round trip', () => {
    // Prepare
    const { fuel_tax_treatment: _absent, ...older } = toFleetItem({ ...fleet, fuelTaxTreatment: 'pump' });

    // Act
    const read = fromFleetItem(throughDynamo(older));

    // Assess
    expect(read.fuelTaxTreatment).toBe('ifta');
    expect(fleetResource(read).fuel_tax_treatment).toBe('ifta');
    expect(fromFleetItem(throughDynamo({ ...toFleetItem({ ...fleet, fuelTaxTreatment: 'pump' }) }))).toEqual({
      ...fleet,
      fuelTaxTreatment: 'pump',
    });
  });
});

describe("a fleet's fuel_program", () => {
  it('reads as no program (rule none, no chains) on an item without it', () => {
    const { fuel_program: _absent, ...older } = toFleetItem(fleet);

    const read = fromFleetItem(throughDynamo(older));

    expect(read.fuelProgram).toEqual(NO_FUEL_PROGRAM);
    expect(fleetResource(read).fuel_program).toEqual({
      rule: 'none',
      chains: [],
      off_program_penalty_usd_per_gallon: 0,
      updated_at: null,
    });
  });

  it('survives the round trip with tenths of a cent, and shows them in USD without float residue', () => {
    const fuelProgram = {
      rule: 'preferred' as const,
      chains: [
        { chain: "Love's", discountCents: 12.5 },
        { chain: 'Pilot Flying J', discountCents: 15 },
        { chain: 'TA', discountCents: 0 },
      ],
      offProgramPenaltyCents: 7.3,
      updatedAt: '2026-11-22T08:00:00.000000Z',
    };

    const read = fromFleetItem(throughDynamo({ ...toFleetItem({ ...fleet, fuelProgram }) }));

    expect(read).toEqual({ ...fleet, fuelProgram });
    expect(fleetResource(read).fuel_program).toEqual({
      rule: 'preferred',
      chains: [
        { chain: "Love's", discount_usd_per_gallon: 0.125 },
        { chain: 'Pilot Flying J', discount_usd_per_gallon: 0.15 },
        { chain: 'TA', discount_usd_per_gallon: 0 },
      ],
      off_program_penalty_usd_per_gallon: 0.073,
      updated_at: '2026-11-22T08:00:00.000000Z',
    });
  });
});

describe("a vehicle's fuel_tax_treatment", () => {
  it('reads as null (the fleet’s) on items written before the override, and keeps a stored one', () => {
    // Prepare
    const { fuel_tax_treatment: _absent, ...older } = toVehicleItem({ ...vehicle, fuelTaxTreatment: 'pump' });

    // Act
    const read = fromVehicleItem(throughDynamo(older));
    const pump = fromVehicleItem(throughDynamo(toVehicleItem({ ...vehicle, fuelTaxTreatment: 'pump' })));

    // Assess
    expect(read.fuelTaxTreatment).toBeNull();
    expect(vehicleResource(read).fuel_tax_treatment).toBeNull();
    expect(pump.fuelTaxTreatment).toBe('pump');
    expect(vehicleResource(pump).fuel_tax_treatment).toBe('pump');
  });
});

describe('vehicleResource', () => {
  it('writes the members in the documented order', () => {
    // Act
    const members = Object.keys(vehicleResource(vehicle));

    // Assess
    expect(members).toEqual(VEHICLE_MEMBERS);
    expect(Object.keys(vehicleSchema.shape)).toEqual(VEHICLE_MEMBERS);
  });

  it('never exposes internal fields (fleet, version)', () => {
    // Act
    const resource = vehicleResource(vehicle) as Record<string, unknown>;

    // Assess
    expect(resource).not.toHaveProperty('fleet_id');
    expect(resource).not.toHaveProperty('version');
  });

  it.each([
    ['with every field set', vehicle],
    [
      'with the optional fields empty',
      { ...vehicle, name: null, vin: null, tankSizeGallons: null, estimatedMpg: null, licensePlate: null },
    ],
    ['after a VIN merge linked further refs', { ...vehicle, linkedExternalRefs: ['UNIT-7', 'T1'] }],
  ])('answers a GET byte for byte like the create response, %s', (_why, record) => {
    // Prepare
    const createResponse = canonicalJson(vehicleResource(record));

    // Act
    const getResponse = canonicalJson(vehicleResource(fromVehicleItem(throughDynamo(toVehicleItem(record)))));

    // Assess
    expect(getResponse).toBe(createResponse);
  });
});

describe('latestLocationResource', () => {
  const recordedAtMs = NOW_MS - 90_500;
  const position: LatestPosition = {
    latitude: 41.8781,
    longitude: -87.6298,
    recordedAt: '2026-11-21T22:24:39.623000Z',
    recordedAtMs,
    receivedAtMs: recordedAtMs + 2_000,
    fuelLevelPercent: 62.5,
    speedKmh: 96.56,
    headingDegrees: 270,
    driverRef: 'DRV-7',
    address: null,
  };

  it('writes the members in the documented order', () => {
    // Act
    const members = Object.keys(latestLocationResource(VEHICLE_ID, position, NOW_MS));

    // Assess
    expect(members).toEqual(Object.keys(latestLocationSchema.shape));
  });

  it('grades freshness and age when read, never a negative age', () => {
    // Act
    const now = latestLocationResource(VEHICLE_ID, position, NOW_MS);
    const later = latestLocationResource(VEHICLE_ID, position, NOW_MS + 3_600_000);
    const clockBehind = latestLocationResource(VEHICLE_ID, position, recordedAtMs - 10_000);

    // Assess
    expect(now).toMatchObject({
      vehicle_id: VEHICLE_ID,
      recorded_at: position.recordedAt,
      received_at: '2026-11-21T22:24:41.623000Z',
      freshness: 'live',
      age_seconds: 91,
    });
    expect(later.freshness).toBe('stale');
    expect(clockBehind.age_seconds).toBe(0);
  });

  it('answers the speed in mph (stored in km/h) and coordinates without float noise', () => {
    // Arrange: 55.5 mph as ingest stores it, and a position carrying float noise.
    const noisy = { ...position, latitude: 32.884699999999995, longitude: -97.16283000000001 };

    // Act
    const resource = latestLocationResource(VEHICLE_ID, { ...noisy, speedKmh: kmhFromMph(55.5) }, NOW_MS);
    const withoutSpeed = latestLocationResource(VEHICLE_ID, { ...noisy, speedKmh: null }, NOW_MS);

    // Assess
    expect(resource).toMatchObject({ latitude: 32.8847, longitude: -97.16283, speed_mph: 55.5 });
    expect(resource).not.toHaveProperty('speed_kmh');
    expect(withoutSpeed.speed_mph).toBeNull();
  });
});

describe('meResource', () => {
  const period = usagePeriod(NOW_MS);

  it('writes the members in the documented order', () => {
    // Act
    const me = meResource({
      principal: principalOf(companyKeyRecord()),
      plan: STARTER_PLAN,
      used: {},
      account: null,
      period,
    });

    // Assess
    expect(Object.keys(me)).toEqual(Object.keys(meSchema.shape));
    expect(Object.keys(me.plan)).toEqual(Object.keys(meSchema.shape.plan.shape));
  });

  it('shows every family with a quota or a count, sorted, at 0 before its first call', () => {
    // Act
    const me = meResource({
      principal: principalOf(companyKeyRecord()),
      plan: { ...STARTER_PLAN, monthlyQuota: { vehicles: 1000, guidance: 50 } },
      used: { webhooks: 3, station_results: 12, station_results_overage: 4 },
      account: null,
      period,
    });

    // Assess
    expect(me.partner).toBeNull();
    expect(me.plan.monthly_quota).toEqual({ guidance: 50, vehicles: 1000 });
    expect(Object.keys(me.plan.monthly_quota)).toEqual(['guidance', 'vehicles']);
    expect(me.plan.used_this_month).toEqual({ guidance: 0, vehicles: 0, webhooks: 3 });
    expect(Object.keys(me.plan.used_this_month)).toEqual(['guidance', 'vehicles', 'webhooks']);
    expect(me.plan.station_results_this_month).toBe(12);
    // The overage is no endpoint family: it is shown on its own, never in used_this_month.
    expect(me.plan.station_results_overage).toBe(4);
    expect(me.plan.period).toEqual({
      start: '2026-11-01T00:00:00.000000Z',
      end: '2026-12-01T00:00:00.000000Z',
    });
  });

  it("names a partner key's partner, by its id when the partner record is missing", () => {
    // Prepare
    const principal = principalOf(partnerKeyRecord());

    // Act
    const named = meResource({ principal, plan: STARTER_PLAN, used: {}, account: { name: 'Acme' }, period });
    const unnamed = meResource({ principal, plan: STARTER_PLAN, used: {}, account: null, period });

    // Assess
    expect(named.partner).toEqual({ id: PARTNER_ID, name: 'Acme' });
    expect(unnamed.partner).toEqual({ id: PARTNER_ID, name: PARTNER_ID });
    expect(named.fleet_id).toBeNull();
  });
});

describe('the route comparison: baselineResource and savingsResource', () => {
  // Two purchases: 120 gal against a $3.150 / $3.290 counterfactual, 60 gal against $3.400 / $3.520.
  const stops = [
    {
      gallons: 120,
      effectiveCost: 366,
      counterfactual: { pumpPrice: 3.29, netPrice: 3.15, stationCount: 6 },
    },
    {
      gallons: 60,
      effectiveCost: 198.6,
      counterfactual: { pumpPrice: 3.52, netPrice: 3.4, stationCount: 3 },
    },
  ];
  const counterfactual = planCounterfactual(stops);
  const savings = planSavings(stops, counterfactual, 'ifta');

  it('states the counterfactual and its two costs, in the documented members', () => {
    // 2 stops arriving with 36 gal of a 240 gal tank.
    const plan = { counterfactual, taxTreatment: 'ifta' as const, stops, arrivalFuelGallons: 36 };
    const resource = baselineResource(plan, 240);
    expect(Object.keys(resource)).toEqual(Object.keys(truckRouteSchema.shape.baseline.shape));
    // 120 × 3.15 + 60 × 3.40 = 378 + 204; 120 × 3.29 + 60 × 3.52 = 394.80 + 211.20.
    expect(resource).toMatchObject({
      strategy: 'mean_price_in_reach',
      fuel_tax_treatment: 'ifta',
      gallons: 180,
      cost_usd: 582,
      pump_cost_usd: 606,
    });
    expect(resource.description).toMatch(/mean price of the stations/);
  });

  it("keeps v1's baseline members, true of the counterfactual: the plan's stops and arrival fuel", () => {
    const plan = { counterfactual, taxTreatment: 'ifta' as const, stops, arrivalFuelGallons: 36 };
    // The counterfactual buys the plan's gallons at the plan's stops: 2 stops, 36 / 240 = 15 %.
    expect(baselineResource(plan, 240)).toMatchObject({
      feasible: true,
      stop_count: 2,
      arrival_fuel_gallons: 36,
      arrival_fuel_percent: 15,
    });
  });

  it('is an object on an infeasible plan too: not feasible, every figure 0', () => {
    const infeasible = {
      counterfactual: null,
      taxTreatment: 'pump' as const,
      stops: [],
      arrivalFuelGallons: null,
    };
    expect(baselineResource(infeasible, 240)).toEqual({
      strategy: 'mean_price_in_reach',
      description: expect.stringMatching(/mean price of the stations/),
      fuel_tax_treatment: 'pump',
      feasible: false,
      stop_count: 0,
      gallons: 0,
      cost_usd: 0,
      pump_cost_usd: 0,
      arrival_fuel_gallons: 0,
      arrival_fuel_percent: 0,
    });
  });

  it('publishes the routing saving with the card part beside it, and null when there is nothing to compare', () => {
    const resource = savingsResource(savings, 3.21);
    expect(Object.keys(resource ?? {})).toEqual(
      Object.keys(truckRouteSchema.shape.savings.def.innerType.shape),
    );
    // 582 − (366 + 198.60) = 17.40, 3.0 % of 582; the card: 606 − 582 = 24.
    expect(resource).toMatchObject({
      usd: 17.4,
      percent: 3,
      basis: 'same_arrival_fuel',
      fuel_tax_treatment: 'ifta',
      counterfactual_cost_usd: 582,
      plan_cost_usd: 564.6,
      routing_savings_usd: 17.4,
      card_savings_usd: 24,
    });
    expect(resource?.description).toContain('$17.40 (3%) saved');
    expect(savingsResource(null, 3.21)).toBeNull();
  });

  it("keeps v1's like-for-like members: the counterfactual's cost, no extra arrival fuel, the route's mean price", () => {
    expect(savingsResource(savings, 3.21)).toMatchObject({
      basis: 'same_arrival_fuel',
      baseline_cost_usd: 582,
      extra_arrival_fuel_gallons: 0,
      fuel_value_usd_per_gallon: 3.21,
      extra_arrival_fuel_value_usd: 0,
    });
  });
});
