import { describe, expect, it } from 'vitest';
import type { FuelProgram } from '#shared/fuel-programs/domain/program.ts';
import { SHIPPED_FUEL_TAX_TABLE } from '#shared/fuel-tax/domain/state-diesel-tax.ts';
import { replanBeforeRouting, replanOnRoute } from '#shared/guidance/domain/replan-policy.ts';
import { type GuidanceSession, type GuidanceStop, startSession } from '#shared/guidance/domain/session.ts';
import type { Station } from '#shared/stations/domain/station.ts';

// A 150-gal truck at 6.5 mpg: 15-gal reserve, 20-gal minimum purchase, 15 % (22.5 gal) on arrival.

const NOW = Date.parse('2026-11-21T12:00:00Z');
const FLEET = 'flt_1';
const PRICING = { taxes: SHIPPED_FUEL_TAX_TABLE, treatment: 'ifta' as const };
const AMARILLO = { latitude: 35.222, longitude: -101.8313 };

const program = (rule: FuelProgram['rule'], penaltyCents = 0): FuelProgram => ({
  rule,
  chains: [{ chain: "Love's", discountCents: 10 }],
  offProgramPenaltyCents: penaltyCents,
  updatedAt: '2026-11-21T11:00:00Z',
});

const station = (id: string, chain: string, price: number): Station => ({
  id,
  name: `${chain} ${id}`,
  chain,
  latitude: 36.1,
  longitude: -102.2,
  address: '',
  state: 'TX',
  amenities: [],
  fuels: ['diesel'],
  dieselPriceUsdPerGallon: price,
  priceUpdatedAtMs: NOW,
});

const newSession = (overrides: Partial<GuidanceSession> = {}): GuidanceSession => ({
  ...startSession({
    id: 'gd_1',
    vehicleId: 'veh_1',
    destination: { latitude: 39.7392, longitude: -104.9903, name: 'Denver' },
    minArrivalFuelPercent: 15,
    nowMs: NOW - 60_000,
  }),
  ...overrides,
});

/** One cycle at Amarillo with `percent` in the tank, `progressMiles` along a route of `distanceMiles`. */
const replan = (...args: Parameters<typeof replanUpdate>) => replanUpdate(...args).session;

/** The same cycle, with what it announces. */
function replanUpdate(
  session: GuidanceSession,
  fuelProgram: FuelProgram,
  corridor: { station: Station; milesAlongRoute: number; offRouteMiles: number }[],
  route: { percent: number; distanceMiles: number; progressMiles: number },
) {
  const step = replanBeforeRouting(
    FLEET,
    session,
    {
      vehicle: { id: 'veh_1', tankSizeGallons: 150, estimatedMpg: 6.5 },
      position: { ...AMARILLO, recordedAtMs: NOW },
      fuel: { percent: route.percent, source: 'reported', reportedAtMs: NOW },
      dwellingAtStationId: null,
    },
    NOW,
  );
  if (step.kind !== 'route_needed') throw new Error('expected the route to be needed');
  return replanOnRoute(
    FLEET,
    session,
    step,
    {
      corridor,
      distanceMiles: route.distanceMiles,
      progressMiles: route.progressMiles,
      program: fuelProgram,
      pricing: PRICING,
    },
    NOW,
  );
}

describe('guidance under a required fuel program', () => {
  // 60 gal on board, 500 miles left: a stop is needed. The Pilot is cheaper and was shown.
  const corridor = [
    { station: station('stn_pilot', 'Pilot', 3.2), milesAlongRoute: 110, offRouteMiles: 0.1 },
    { station: station('stn_loves', "Love's", 3.5), milesAlongRoute: 200, offRouteMiles: 0.1 },
  ];
  const shownPilot: GuidanceStop = {
    id: 'gds_pilot',
    stationId: 'stn_pilot',
    name: 'Pilot stn_pilot',
    chain: 'Pilot',
    latitude: 36.1,
    longitude: -102.2,
    address: '',
    milesAhead: 10,
    detourMiles: 0.2,
    gallonsToBuy: 80,
    price: 3.2,
    discount: 0,
    netPrice: 3.2,
    priceIsStale: false,
    reason: 'cheapest',
    recommendedAtMs: NOW - 60_000,
    acknowledgedAtMs: null,
  };
  const route = { percent: 40, distanceMiles: 600, progressMiles: 100 };

  it('withdraws a stop shown before at a refused chain for an accepted one', () => {
    // Prepare: without a rule the commitment keeps the stop shown.
    const session = newSession({ revision: 1, phase: 'approaching_stop', stops: [shownPilot] });
    expect(replan(session, program('none'), corridor, route).stops.map((s) => s.stationId)).toEqual([
      'stn_pilot',
    ]);

    // Act
    const next = replan(session, program('required'), corridor, route);

    // Assess
    expect(next.stops.map((s) => [s.stationId, s.inFuelProgram, s.discount])).toEqual([
      ['stn_loves', true, 0.1],
    ]);
    expect(next.planStatus).toBe('ok');
    expect(next.fuelProgramShortfall).toBeNull();
  });

  it('says no accepted station is in range, with the shortfall, and shows no stop', () => {
    // Prepare: 60 gal − 15 reserve = 45 gal = 292.5 miles of range; the Love's is 400 miles
    // ahead, 0.5 mile off the route: 400.5 − 292.5 = 108 miles, ÷ 6.5 mpg = 16.6 gal short. The
    // Pilot 50 miles ahead would do: a plan over every station reaches Denver.
    const far = [
      { station: station('stn_pilot', 'Pilot', 3.2), milesAlongRoute: 150, offRouteMiles: 0.1 },
      { station: station('stn_loves', "Love's", 3.5), milesAlongRoute: 500, offRouteMiles: 0.5 },
    ];
    const wide = { percent: 40, distanceMiles: 1_100, progressMiles: 100 };

    // Act
    const next = replan(newSession(), program('required'), far, wide);

    // Assess
    expect(replan(newSession(), program('none'), far, wide).planStatus).toBe('ok');
    expect(next).toMatchObject({
      phase: 'cannot_reach',
      stops: [],
      planStatus: 'no_accepted_station_in_range',
      planReason:
        "No station on your fuel card program is within reach: the nearest, Love's stn_loves at mile 400, " +
        'is 108 miles beyond your range above the reserve (16.6 gal short).',
      projectedArrivalFuelPercent: null,
      fuelProgramShortfall: {
        code: 'no_accepted_station_in_range',
        nearestAcceptedStop: {
          stationId: 'stn_loves',
          name: "Love's stn_loves",
          chain: "Love's",
          state: 'TX',
          latitude: 36.1,
          longitude: -102.2,
          milesAlongRoute: 400,
          detourMiles: 0.5,
        },
        shortfallMiles: 108,
        shortfallGallons: 16.6,
      },
    });
  });

  it('tells webhook subscribers in guidance.updated that the program leaves the truck short', () => {
    // Prepare: the same drive as above, a plan over the accepted Love's alone cannot reach it.
    const far = [
      { station: station('stn_pilot', 'Pilot', 3.2), milesAlongRoute: 150, offRouteMiles: 0.1 },
      { station: station('stn_loves', "Love's", 3.5), milesAlongRoute: 500, offRouteMiles: 0.5 },
    ];
    const wide = { percent: 40, distanceMiles: 1_100, progressMiles: 100 };

    // Act
    const required = replanUpdate(newSession(), program('required'), far, wide);
    const unrestricted = replanUpdate(newSession(), program('none'), far, wide);

    // Assess
    const updated = (update: ReturnType<typeof replanUpdate>) =>
      update.events.find((event) => event.type === 'guidance.updated')?.data;
    expect(updated(required)).toMatchObject({ plan_status: 'no_accepted_station_in_range', stop_ids: [] });
    expect(updated(unrestricted)).toMatchObject({ plan_status: 'ok' });
  });

  it('still sends the truck to an accepted stop in reach when the gap lies after it', () => {
    // Prepare: 60 gal on board, 1,800 miles left. The Love's 100 miles ahead is in reach; past it
    // only a refused Pilot, then the next Love's 1,200 miles ahead: a full 150-gal tank at the first
    // Love's goes 975 miles, even spending the reserve, so no plan over accepted stations exists,
    // while one filling at the Pilot (500 ahead) reaches Denver.
    const gap = [
      { station: station('stn_loves1', "Love's", 3.5), milesAlongRoute: 200, offRouteMiles: 0.1 },
      { station: station('stn_pilot', 'Pilot', 3.2), milesAlongRoute: 600, offRouteMiles: 0.1 },
      { station: station('stn_loves2', "Love's", 3.5), milesAlongRoute: 1_300, offRouteMiles: 0.1 },
    ];
    const long = { percent: 40, distanceMiles: 1_900, progressMiles: 100 };

    // Act
    const next = replan(newSession(), program('required'), gap, long);

    // Assess: the accepted stop is shown (never the refused one), the phase follows it.
    expect(replan(newSession(), program('none'), gap, long).planStatus).toBe('ok');
    expect(next).toMatchObject({
      phase: 'stop_recommended',
      planStatus: 'no_accepted_station_in_range',
      projectedArrivalFuelPercent: null,
      fuelProgramShortfall: { nearestAcceptedStop: { stationId: 'stn_loves2', milesAlongRoute: 1_200 } },
    });
    expect(next.stops.map((s) => [s.stationId, s.inFuelProgram])).toEqual([['stn_loves1', true]]);
    expect(next.planReason).toMatch(
      /^No station on your fuel card program covers the stretch after Love's stn_loves1 \(mile 100\): the next, Love's stn_loves2 at mile 1,200, is \d+ miles beyond the range there/,
    );
  });

  it('never makes a refused station the urgent stop when nothing reaches the destination', () => {
    // Prepare: 18 gal (117 miles) and 1,900 miles left: no plan at all. Only the Pilot is in range.
    const urgent = [
      { station: station('stn_pilot', 'Pilot', 3.6), milesAlongRoute: 120, offRouteMiles: 0.1 },
      { station: station('stn_loves', "Love's", 3.2), milesAlongRoute: 400, offRouteMiles: 0.1 },
    ];
    const long = { percent: 12, distanceMiles: 2_000, progressMiles: 100 };

    // Act
    const none = replan(newSession(), program('none'), urgent, long);
    const required = replan(newSession(), program('required'), urgent, long);

    // Assess
    expect(none.stops.map((s) => s.stationId)).toEqual(['stn_pilot']);
    expect(required).toMatchObject({ phase: 'cannot_reach', stops: [], planStatus: 'infeasible' });
    expect(required.planReason).toMatch(/No station is within reach on the route\.$/);
  });
});

describe('guidance under a preferred fuel program', () => {
  it('shows an off-program stop with the penalty in its reason and the card refused there', () => {
    // Prepare: the Pilot's $3.20 + $0.10 penalty is under the Love's $3.50 − $0.10 card.
    const corridor = [
      { station: station('stn_pilot', 'Pilot', 3.2), milesAlongRoute: 110, offRouteMiles: 0.1 },
      { station: station('stn_loves', "Love's", 3.5), milesAlongRoute: 200, offRouteMiles: 0.1 },
    ];

    // Act
    const next = replan(newSession(), program('preferred', 10), corridor, {
      percent: 40,
      distanceMiles: 600,
      progressMiles: 100,
    });

    // Assess: prices as at the pump; the $0.20 is $3.40 against $3.20 (both after Texas's 20¢ credit).
    expect(next.stops).toMatchObject([{ stationId: 'stn_pilot', inFuelProgram: false, netPrice: 3.2 }]);
    expect(next.stops[0]?.reason).toMatch(
      /Off your fuel card program \(penalty \$0\.10\/gal\): chosen because it is \$0\.20\/gal cheaper than Love's stn_loves, the best accepted stop in reach\.$/,
    );
    expect(next.planStatus).toBe('ok');
  });
});

describe('a stop kept by commitment under a preferred fuel program', () => {
  it('keeps the off-program stop shown 10 miles out, its reason saying so', () => {
    // Prepare: 70 % reaches Denver without a stop, but a stop shown 10 miles out is kept with the
    // minimum purchase (commitment). The Pilot is off the program; the Love's 160 miles on is on it.
    const corridor = [
      { station: station('stn_near', 'Pilot', 3.6), milesAlongRoute: 110, offRouteMiles: 0.1 },
      { station: station('stn_ahead', "Love's", 3.2), milesAlongRoute: 260, offRouteMiles: 0.1 },
    ];
    const shown = newSession({
      revision: 1,
      phase: 'approaching_stop',
      stops: [
        {
          id: 'gds_near',
          stationId: 'stn_near',
          name: 'Pilot stn_near',
          chain: 'Pilot',
          latitude: 36.1,
          longitude: -102.2,
          address: '',
          milesAhead: 10,
          detourMiles: 0.2,
          gallonsToBuy: 20,
          price: 3.6,
          discount: 0,
          netPrice: 3.6,
          priceIsStale: false,
          reason: 'cheapest',
          recommendedAtMs: NOW - 60_000,
          acknowledgedAtMs: null,
        },
      ],
    });

    // Act
    const kept = replan(shown, program('preferred', 1), corridor, {
      percent: 70,
      distanceMiles: 400,
      progressMiles: 100,
    });

    // Assess
    expect(kept.stops.map((s) => [s.stationId, s.gallonsToBuy, s.inFuelProgram])).toEqual([
      ['stn_near', 20, false],
    ]);
    expect(kept.stops[0]?.reason).toMatch(
      /^The stop you were given: .* Off your fuel card program \(penalty \$0\.01\/gal\): not chosen for its price: Love's stn_ahead, the best accepted stop in reach, is \$0\.50\/gal cheaper\.$/,
    );
  });
});
