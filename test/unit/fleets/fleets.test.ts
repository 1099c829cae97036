import { describe, expect, it, vi } from 'vitest';
import type { EventEnvelope } from '#shared/events/domain/envelope.ts';
import { fleetResource } from '#shared/fleets/api/serializers.ts';
import type { Fleet } from '#shared/fleets/domain/fleet.ts';
import { UNSET_TRUCK_PROFILE } from '#shared/fleets/domain/truck-profile.ts';
import type { FleetStore } from '#shared/fleets/store/fleets.ts';
import {
  actingFleet,
  assumedDepartureFuelPercentFor,
  grantedFleet,
  minArrivalFuelPercentFor,
  provisionFleet,
  updateActingFleetSettings,
  updateFleet,
} from '#shared/fleets/usecases/fleets.ts';
import { NO_FUEL_PROGRAM } from '#shared/fuel-programs/domain/program.ts';
import { isPublicId } from '#shared/kernel/ids.ts';
import { fixedClock } from '#shared/kernel/time.ts';
import { ApiError } from '#shared/platform/errors.ts';
import { GRANTED_FLEET_ID, NOW_MS, OTHER_FLEET_ID, PARTNER_ID } from '../fixtures.ts';

const NOW = '2026-11-21T22:26:10.123000Z';

/** The company's owner key (every company scope, keys:manage among them). */
const OWNER = { ownerType: 'company', scopes: ['vehicles:manage', 'keys:manage'] } as const;

const granted: Fleet = {
  id: GRANTED_FLEET_ID,
  name: 'Acme Freight',
  externalRef: 'ACME-1',
  contactEmail: null,
  timezone: 'America/Chicago',
  status: 'active',
  defaultMinArrivalFuelPercent: 10,
  assumedDepartureFuelPercent: 100,
  fuelTaxTreatment: 'ifta',
  fuelProgram: NO_FUEL_PROGRAM,
  truckProfile: { ...UNSET_TRUCK_PROFILE },
  partnerId: PARTNER_ID,
  createdAt: '2026-11-01T08:00:00.000000Z',
  updatedAt: '2026-11-01T08:00:00.000000Z',
};

/** Fleets by id; grants as `partnerId/fleetId`. Only the methods these use cases call are live. */
function fakeFleetStore(fleets: Fleet[], grants: string[]) {
  const byId = new Map(fleets.map((f) => [f.id, f]));
  return {
    provision: vi.fn<FleetStore['provision']>(async () => {}),
    putCompanyFleet: vi.fn<FleetStore['putCompanyFleet']>(),
    get: vi.fn<FleetStore['get']>(async (id) => byId.get(id) ?? null),
    hasGrant: vi.fn<FleetStore['hasGrant']>(async (p, f) => grants.includes(`${p}/${f}`)),
    listGranted: vi.fn<FleetStore['listGranted']>(),
    update: vi.fn<FleetStore['update']>(async (id, changes, at) => {
      const fleet = byId.get(id);
      if (!fleet) return null;
      const next = { ...fleet, updatedAt: at };
      if (changes.name !== undefined) next.name = changes.name;
      return next;
    }),
    deactivate: vi.fn<FleetStore['deactivate']>(),
  };
}

describe('provisionFleet', () => {
  it('creates the fleet for the partner with the clock’s timestamps', async () => {
    // Prepare
    const fleets = fakeFleetStore([], []);

    // Act
    const fleet = await provisionFleet({ fleets, stage: 'prod', clock: fixedClock(NOW_MS) }, PARTNER_ID, {
      name: 'Acme Freight',
      timezone: 'America/Chicago',
    });

    // Assess
    expect(isPublicId('fleet', fleet.id)).toBe(true);
    expect(fleet).toMatchObject({
      name: 'Acme Freight',
      externalRef: null,
      contactEmail: null,
      timezone: 'America/Chicago',
      status: 'active',
      partnerId: PARTNER_ID,
      createdAt: NOW,
      updatedAt: NOW,
    });
    expect(fleets.provision).toHaveBeenCalledWith(fleet, PARTNER_ID, expect.anything());
  });

  it.each([
    ['prod', false],
    ['sandbox', true],
  ] as const)('announces it on %s with fleet.provisioned, sequence 1, sandbox %s', async (stage, sandbox) => {
    // Prepare
    const fleets = fakeFleetStore([], []);

    // Act
    const fleet = await provisionFleet({ fleets, stage, clock: fixedClock(NOW_MS) }, PARTNER_ID, {
      name: 'Acme Freight',
      timezone: 'America/Chicago',
    });

    // Assess: the event envelope, members in the published order.
    const event = fleets.provision.mock.calls[0]?.[2] as EventEnvelope;
    expect(Object.keys(event)).toEqual([
      'id',
      'type',
      'api_version',
      'sandbox',
      'sequence',
      'occurred_at',
      'fleet_id',
      'data',
    ]);
    expect(isPublicId('event', event.id)).toBe(true);
    expect(event).toMatchObject({
      type: 'fleet.provisioned',
      api_version: '2026-07-01',
      sandbox,
      sequence: 1,
      occurred_at: NOW,
      fleet_id: fleet.id,
      data: { fleet: fleetResource(fleet) },
    });
  });
});

describe('grantedFleet and updateFleet', () => {
  it('returns a fleet the partner holds a grant on', async () => {
    // Prepare
    const fleets = fakeFleetStore([granted], [`${PARTNER_ID}/${GRANTED_FLEET_ID}`]);

    // Act / Assess
    expect(await grantedFleet({ fleets }, PARTNER_ID, GRANTED_FLEET_ID)).toEqual(granted);
  });

  it.each([
    [
      'exists but is not granted to the partner',
      [granted, { ...granted, id: OTHER_FLEET_ID }],
      OTHER_FLEET_ID,
    ],
    ['does not exist', [granted], OTHER_FLEET_ID],
  ])('answers 404, never 403, for a fleet that %s', async (_why, stored, fleetId) => {
    // Prepare
    const fleets = fakeFleetStore(stored, [`${PARTNER_ID}/${GRANTED_FLEET_ID}`]);

    // Act
    const error = await grantedFleet({ fleets }, PARTNER_ID, fleetId).catch((e: unknown) => e);

    // Assess
    expect(error).toBeInstanceOf(ApiError);
    expect([(error as ApiError).code, (error as ApiError).status]).toEqual(['resource_not_found', 404]);
  });

  it('does not update a fleet outside the partner’s grants', async () => {
    // Prepare
    const fleets = fakeFleetStore(
      [granted, { ...granted, id: OTHER_FLEET_ID }],
      [`${PARTNER_ID}/${GRANTED_FLEET_ID}`],
    );

    // Act
    const error = await updateFleet(
      { fleets, stage: 'prod', clock: fixedClock(NOW_MS) },
      PARTNER_ID,
      OTHER_FLEET_ID,
      { name: 'Taken over' },
    ).catch((e: unknown) => e);

    // Assess
    expect((error as ApiError).code).toBe('resource_not_found');
    expect(fleets.update).not.toHaveBeenCalled();
  });

  it('maps the body to the store’s changes, stamped with the clock', async () => {
    // Prepare
    const fleets = fakeFleetStore([granted], [`${PARTNER_ID}/${GRANTED_FLEET_ID}`]);

    // Act
    const updated = await updateFleet(
      { fleets, stage: 'prod', clock: fixedClock(NOW_MS) },
      PARTNER_ID,
      GRANTED_FLEET_ID,
      { name: 'Acme Logistics', contact_email: null },
    );

    // Assess
    expect(fleets.update).toHaveBeenCalledWith(
      GRANTED_FLEET_ID,
      { name: 'Acme Logistics', externalRef: undefined, contactEmail: null },
      NOW,
    );
    expect(updated.name).toBe('Acme Logistics');
  });
});

describe("the fleet's default_min_arrival_fuel_percent", () => {
  const deps = (fleets: ReturnType<typeof fakeFleetStore>) => ({
    fleets,
    stage: 'prod' as const,
    clock: fixedClock(NOW_MS),
  });

  it('is 10 on a provisioned fleet unless the partner gives another', async () => {
    // Prepare
    const fleets = fakeFleetStore([], []);
    const body = { name: 'Acme Freight', timezone: 'America/Chicago' };

    // Act
    const plain = await provisionFleet(deps(fleets), PARTNER_ID, body);
    const strict = await provisionFleet(deps(fleets), PARTNER_ID, {
      ...body,
      default_min_arrival_fuel_percent: 25,
    });

    // Assess
    expect(plain.defaultMinArrivalFuelPercent).toBe(10);
    expect(strict.defaultMinArrivalFuelPercent).toBe(25);
    expect(fleetResource(strict).default_min_arrival_fuel_percent).toBe(25);
  });

  it('is passed to the store by PATCH /v1/fleets/{id}', async () => {
    // Prepare
    const fleets = fakeFleetStore([granted], [`${PARTNER_ID}/${GRANTED_FLEET_ID}`]);

    // Act
    await updateFleet(deps(fleets), PARTNER_ID, GRANTED_FLEET_ID, { default_min_arrival_fuel_percent: 20 });

    // Assess
    expect(fleets.update).toHaveBeenCalledWith(
      GRANTED_FLEET_ID,
      expect.objectContaining({ defaultMinArrivalFuelPercent: 20 }),
      NOW,
    );
  });

  it('PATCH /v1/fleet changes only the setting, on the acting fleet, without a partner grant', async () => {
    // Prepare: a company's own fleet has no grant.
    const fleets = fakeFleetStore([{ ...granted, partnerId: null }], []);

    // Act
    await updateActingFleetSettings(deps(fleets), OWNER, GRANTED_FLEET_ID, {
      default_min_arrival_fuel_percent: 30,
    });

    // Assess
    expect(fleets.hasGrant).not.toHaveBeenCalled();
    expect(fleets.update).toHaveBeenCalledWith(GRANTED_FLEET_ID, { defaultMinArrivalFuelPercent: 30 }, NOW);
  });

  it('GET and PATCH /v1/fleet answer 404 when the acting fleet has no record', async () => {
    // Prepare
    const fleets = fakeFleetStore([], []);

    // Act
    const errors = await Promise.all([
      actingFleet({ fleets }, OTHER_FLEET_ID).catch((e: unknown) => e),
      updateActingFleetSettings(deps(fleets), OWNER, OTHER_FLEET_ID, {
        default_min_arrival_fuel_percent: 5,
      }).catch((e: unknown) => e),
    ]);

    // Assess
    for (const error of errors) expect((error as ApiError).code).toBe('resource_not_found');
  });

  it("resolves a request's margin: its own value without reading the fleet, else the fleet's", async () => {
    // Prepare
    const fleets = fakeFleetStore([{ ...granted, defaultMinArrivalFuelPercent: 25 }], []);

    // Act
    const requested = await minArrivalFuelPercentFor({ fleets }, GRANTED_FLEET_ID, 15);
    const readsBefore = fleets.get.mock.calls.length;
    const fromFleet = await minArrivalFuelPercentFor({ fleets }, GRANTED_FLEET_ID, undefined);
    const noRecord = await minArrivalFuelPercentFor({ fleets }, OTHER_FLEET_ID, undefined);

    // Assess
    expect(requested).toBe(15);
    expect(readsBefore).toBe(0);
    expect(fromFleet).toBe(25);
    expect(noRecord).toBe(10);
  });
});

describe("the fleet's fuel_tax_treatment", () => {
  const deps = (fleets: ReturnType<typeof fakeFleetStore>) => ({
    fleets,
    stage: 'prod' as const,
    clock: fixedClock(NOW_MS),
  });

  it('is ifta on a provisioned fleet unless the partner gives pump', async () => {
    // Prepare
    const fleets = fakeFleetStore([], []);
    const body = { name: 'Acme Freight', timezone: 'America/Chicago' };

    // Act
    const plain = await provisionFleet(deps(fleets), PARTNER_ID, body);
    const intrastate = await provisionFleet(deps(fleets), PARTNER_ID, {
      ...body,
      fuel_tax_treatment: 'pump',
    });

    // Assess
    expect(plain.fuelTaxTreatment).toBe('ifta');
    expect(intrastate.fuelTaxTreatment).toBe('pump');
    expect(fleetResource(intrastate).fuel_tax_treatment).toBe('pump');
  });

  it('PATCH /v1/fleets/{id} and PATCH /v1/fleet pass it to the store alone', async () => {
    // Prepare
    const fleets = fakeFleetStore([granted], [`${PARTNER_ID}/${GRANTED_FLEET_ID}`]);

    // Act
    await updateFleet(deps(fleets), PARTNER_ID, GRANTED_FLEET_ID, { fuel_tax_treatment: 'pump' });
    await updateActingFleetSettings(deps(fleets), OWNER, GRANTED_FLEET_ID, { fuel_tax_treatment: 'ifta' });

    // Assess
    expect(fleets.update.mock.calls.map(([, changes]) => changes.fuelTaxTreatment)).toEqual(['pump', 'ifta']);
    expect(fleets.update.mock.calls.map(([, changes]) => changes.assumedDepartureFuelPercent)).toEqual([
      undefined,
      undefined,
    ]);
  });
});

describe("the fleet's assumed_departure_fuel_percent", () => {
  const deps = (fleets: ReturnType<typeof fakeFleetStore>) => ({
    fleets,
    stage: 'prod' as const,
    clock: fixedClock(NOW_MS),
  });

  it('is 100 (a full tank) on a provisioned fleet unless the partner gives another', async () => {
    // Prepare
    const fleets = fakeFleetStore([], []);
    const body = { name: 'Acme Freight', timezone: 'America/Chicago' };

    // Act
    const plain = await provisionFleet(deps(fleets), PARTNER_ID, body);
    const half = await provisionFleet(deps(fleets), PARTNER_ID, {
      ...body,
      assumed_departure_fuel_percent: 50,
    });

    // Assess
    expect(plain.assumedDepartureFuelPercent).toBe(100);
    expect(half.assumedDepartureFuelPercent).toBe(50);
    expect(fleetResource(half).assumed_departure_fuel_percent).toBe(50);
  });

  it('PATCH /v1/fleets/{id} and PATCH /v1/fleet pass it to the store alone', async () => {
    // Prepare
    const fleets = fakeFleetStore([granted], [`${PARTNER_ID}/${GRANTED_FLEET_ID}`]);

    // Act
    await updateFleet(deps(fleets), PARTNER_ID, GRANTED_FLEET_ID, { assumed_departure_fuel_percent: 80 });
    await updateActingFleetSettings(deps(fleets), OWNER, GRANTED_FLEET_ID, {
      assumed_departure_fuel_percent: 75,
    });

    // Assess
    expect(fleets.update.mock.calls.map(([, changes]) => changes.assumedDepartureFuelPercent)).toEqual([
      80, 75,
    ]);
    expect(fleets.update.mock.calls.map(([, changes]) => changes.defaultMinArrivalFuelPercent)).toEqual([
      undefined,
      undefined,
    ]);
  });

  it("resolves to the acting fleet's setting, or 100 without a fleet record", async () => {
    // Prepare
    const fleets = fakeFleetStore([{ ...granted, assumedDepartureFuelPercent: 65 }], []);

    // Act / Assess
    expect(await assumedDepartureFuelPercentFor({ fleets }, GRANTED_FLEET_ID)).toBe(65);
    expect(await assumedDepartureFuelPercentFor({ fleets }, OTHER_FLEET_ID)).toBe(100);
  });
});

describe("the fleet's fuel_program", () => {
  const deps = (fleets: ReturnType<typeof fakeFleetStore>) => ({
    fleets,
    stage: 'prod' as const,
    clock: fixedClock(NOW_MS),
  });
  const body = {
    fuel_program: {
      rule: 'preferred' as const,
      chains: [
        { chain: "Love's", discount_usd_per_gallon: 0.125 },
        { chain: 'TA', discount_usd_per_gallon: 0 },
      ],
      off_program_penalty_usd_per_gallon: 0.08,
    },
  };
  // USD on the wire, cents (with a tenth) stored, stamped with the change's time.
  const stored = {
    rule: 'preferred',
    chains: [
      { chain: "Love's", discountCents: 12.5 },
      { chain: 'TA', discountCents: 0 },
    ],
    offProgramPenaltyCents: 8,
    updatedAt: NOW,
  };

  it('PATCH /v1/fleet with the owner key replaces the program, in cents, as of now', async () => {
    const fleets = fakeFleetStore([{ ...granted, partnerId: null }], []);

    await updateActingFleetSettings(deps(fleets), OWNER, GRANTED_FLEET_ID, body);

    expect(fleets.update).toHaveBeenCalledWith(GRANTED_FLEET_ID, { fuelProgram: stored }, NOW);
  });

  it('PATCH /v1/fleet with a partner key (SVC-Fleet) may set it: the partner administers the fleet', async () => {
    const fleets = fakeFleetStore([granted], []);
    const partner = { ownerType: 'partner', scopes: ['vehicles:manage'] } as const;

    await updateActingFleetSettings(deps(fleets), partner, GRANTED_FLEET_ID, body);

    expect(fleets.update).toHaveBeenCalledWith(GRANTED_FLEET_ID, { fuelProgram: stored }, NOW);
  });

  it('refuses a company key without keys:manage with 403 insufficient_scope, writing nothing', async () => {
    const fleets = fakeFleetStore([{ ...granted, partnerId: null }], []);
    const integration = { ownerType: 'company', scopes: ['vehicles:manage'] } as const;

    const error = await updateActingFleetSettings(deps(fleets), integration, GRANTED_FLEET_ID, body).catch(
      (e: unknown) => e,
    );

    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe('insufficient_scope');
    expect((error as ApiError).extensions.required_scope).toBe('keys:manage');
    expect(fleets.update).not.toHaveBeenCalled();
    // The other settings stay open to it.
    await updateActingFleetSettings(deps(fleets), integration, GRANTED_FLEET_ID, {
      assumed_departure_fuel_percent: 80,
    });
    expect(fleets.update).toHaveBeenCalledWith(GRANTED_FLEET_ID, { assumedDepartureFuelPercent: 80 }, NOW);
  });

  it('PATCH /v1/fleets/{id} sets it for a granted fleet', async () => {
    const fleets = fakeFleetStore([granted], [`${PARTNER_ID}/${GRANTED_FLEET_ID}`]);

    await updateFleet(deps(fleets), PARTNER_ID, GRANTED_FLEET_ID, body);

    expect(fleets.update).toHaveBeenCalledWith(GRANTED_FLEET_ID, { fuelProgram: stored }, NOW);
  });
});
