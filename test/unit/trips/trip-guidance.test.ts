import { describe, expect, it } from 'vitest';
import { stopArrivedEvent, tripEvent } from '#shared/events/domain/event-payloads.ts';
import { type FuelProgram, NO_FUEL_PROGRAM } from '#shared/fuel-programs/domain/program.ts';
import { tripGuidanceSession, tripStopOf, tripWatchedStops } from '#shared/trips/domain/trip-guidance.ts';
import { aTrip, fuelStop, pickup, T0 } from './fixtures.ts';

const FLEET = 'flt_01JD7ZK3M4N5P6Q7R8S9T0V1W6';
const trip = aTrip('active', {
  route: { distanceMiles: 800, durationMinutes: 700, polyline: '' },
  fuelPlan: null,
});
const opened = tripGuidanceSession(FLEET, trip, {
  guidanceId: 'gd_01JD7ZK3M4N5P6Q7R8S9T0V1X1',
  minArrivalFuelPercent: 15,
  progressMiles: 10,
  nowMs: T0,
  program: NO_FUEL_PROGRAM,
});

const program = (rule: FuelProgram['rule'], chains: string[]): FuelProgram => ({
  rule,
  chains: chains.map((chain) => ({ chain, discountCents: 0 })),
  offProgramPenaltyCents: 0,
  updatedAt: '2026-11-21T11:00:00Z',
});

describe('the guidance session a started trip opens', () => {
  it('heads for the destination with the trip’s fuel stops, each naming its trip stop', () => {
    const { session } = opened;
    expect(session).toMatchObject({
      id: 'gd_01JD7ZK3M4N5P6Q7R8S9T0V1X1',
      tripId: trip.id,
      status: 'active',
      destination: trip.destination,
      minArrivalFuelPercent: 15,
      phase: 'stop_recommended',
      revision: 1,
    });
    expect(session.stops).toHaveLength(1);
    expect(session.stops[0]).toMatchObject({
      stationId: fuelStop.fuel?.station.id,
      tripStopId: fuelStop.id,
      gallonsToBuy: 92.5,
      netPrice: 3.339,
      // Counted from the truck: 360.2 miles along the route, the truck 10 miles in.
      milesAhead: 350.2,
    });
    expect(session.remainingMiles).toBe(790);
    // A stop planned before fuel programs says nothing about the card; a trip without a plan, no status.
    expect(session.stops[0]?.inFuelProgram).toBeNull();
    expect(session.planStatus).toBeNull();
    expect(session.tripStops).toEqual([
      { stopId: pickup.id, name: pickup.name, latitude: pickup.latitude, longitude: pickup.longitude },
    ]);
  });

  it('carries whether the card is accepted at each fuel stop under the program now, and the plan status', () => {
    const fuel = fuelStop.fuel as NonNullable<typeof fuelStop.fuel>;
    const onProgram = {
      ...trip,
      stops: trip.stops.map((stop) =>
        stop.id === fuelStop.id ? { ...stop, fuel: { ...fuel, inFuelProgram: true } } : stop,
      ),
      fuelPlan: {
        status: 'ok' as const,
        reason: 'One stop.',
        startFuelPercent: 40,
        minArrivalFuelPercent: 15,
        totalGallons: 92.5,
        totalCostUsd: 300,
        projectedArrivalFuelPercent: 20,
        baseline: {},
        savings: null,
        optimizedAtMs: T0,
      },
    };
    const open = (program: FuelProgram) =>
      tripGuidanceSession(FLEET, onProgram, {
        guidanceId: 'gd_01JD7ZK3M4N5P6Q7R8S9T0V1X3',
        minArrivalFuelPercent: 15,
        progressMiles: 10,
        nowMs: T0,
        program,
      }).session;
    const session = open(program('required', ["Love's"]));
    expect(session.stops.map((stop) => stop.inFuelProgram)).toEqual([true]);
    expect(session.planStatus).toBe('ok');
    expect(session.forceReplan).toBe(false);
    // Planned on the program, but the fleet has since dropped its rule or its chain.
    expect(open(NO_FUEL_PROGRAM).stops.map((stop) => stop.inFuelProgram)).toEqual([null]);
    expect(open(program('preferred', ['Pilot'])).stops.map((stop) => stop.inFuelProgram)).toEqual([false]);
  });

  it('never announces a stop the program now refuses, and plans afresh at the first cycle', () => {
    // Prepare: the trip's stop is at a Love's, planned when the card was accepted there.
    const fuel = fuelStop.fuel as NonNullable<typeof fuelStop.fuel>;
    const planned = {
      ...trip,
      stops: trip.stops.map((stop) =>
        stop.id === fuelStop.id ? { ...stop, fuel: { ...fuel, inFuelProgram: true } } : stop,
      ),
      fuelPlan: {
        status: 'ok' as const,
        reason: 'One stop.',
        startFuelPercent: 40,
        minArrivalFuelPercent: 15,
        totalGallons: 92.5,
        totalCostUsd: 300,
        projectedArrivalFuelPercent: 20,
        baseline: {},
        savings: null,
        optimizedAtMs: T0,
      },
    };

    // Act: the program is now required with Pilot only.
    const { session, events } = tripGuidanceSession(FLEET, planned, {
      guidanceId: 'gd_01JD7ZK3M4N5P6Q7R8S9T0V1X4',
      minArrivalFuelPercent: 15,
      progressMiles: 10,
      nowMs: T0,
      program: program('required', ['Pilot']),
    });

    // Assess: no stop, nothing announced, and the first cycle replans.
    expect(session.stops).toEqual([]);
    expect(events.filter((event) => event.type === 'guidance.updated')).toEqual([]);
    expect(session.forceReplan).toBe(true);
    expect(session.planStatus ?? null).toBeNull();
  });

  it('gives no gallons from a plan made without a reported level, and keeps assuming its level', () => {
    const fuelPlan = {
      status: 'ok' as const,
      reason: 'One stop.',
      startFuelPercent: 80,
      fuelLevelSource: 'assumed' as const,
      fuelLevelAsOfMs: T0,
      minArrivalFuelPercent: 15,
      totalGallons: 92.5,
      totalCostUsd: 300,
      projectedArrivalFuelPercent: 20,
      baseline: {},
      savings: null,
      optimizedAtMs: T0,
    };
    const input = {
      guidanceId: 'gd_01JD7ZK3M4N5P6Q7R8S9T0V1X2',
      minArrivalFuelPercent: 15,
      progressMiles: 0,
      nowMs: T0,
      program: NO_FUEL_PROGRAM,
    };
    const assumed = tripGuidanceSession(FLEET, { ...trip, fuelPlan }, input).session;
    const projected = tripGuidanceSession(
      FLEET,
      { ...trip, fuelPlan: { ...fuelPlan, fuelLevelSource: 'projected' as const } },
      input,
    ).session;
    const reported = tripGuidanceSession(
      FLEET,
      { ...trip, fuelPlan: { ...fuelPlan, fuelLevelSource: 'reported' as const } },
      input,
    ).session;
    expect(assumed.stops.map((stop) => stop.gallonsToBuy)).toEqual([null]);
    expect(projected.stops.map((stop) => stop.gallonsToBuy)).toEqual([null]);
    expect(reported.stops.map((stop) => stop.gallonsToBuy)).toEqual([92.5]);
    expect(assumed.fuelAssumption).toEqual({ percent: 80, atMs: T0, odometerMiles: null });
    expect(reported.fuelAssumption?.percent).toBe(100);
  });

  it('carries each fuel stop’s price basis onto its guidance stop; a stop planned before it reads as pump prices', () => {
    // Prepare: the fixture's stop (no basis kept: planned before it), and the same stop as the
    // planner now keeps it: Oklahoma, 20¢ credited, 6 stations in reach.
    const priced = {
      ...fuelStop,
      fuel: fuelStop.fuel && {
        ...fuelStop.fuel,
        state: 'OK',
        stateTax: 0.2,
        effectivePrice: 3.139,
        counterfactual: { pumpPrice: 3.31, netPrice: 3.2, stationCount: 6 },
      },
    };
    const fuelPlan = {
      status: 'ok' as const,
      reason: 'One stop.',
      startFuelPercent: 80,
      minArrivalFuelPercent: 15,
      totalGallons: 92.5,
      totalCostUsd: 300,
      projectedArrivalFuelPercent: 20,
      taxTreatment: 'ifta' as const,
      baseline: null,
      savings: null,
      optimizedAtMs: T0,
    };
    const input = {
      guidanceId: 'gd_01JD7ZK3M4N5P6Q7R8S9T0V1X3',
      minArrivalFuelPercent: 15,
      progressMiles: 0,
      nowMs: T0,
      program: NO_FUEL_PROGRAM,
    };

    // Act
    const [now] = tripGuidanceSession(FLEET, { ...trip, fuelPlan, stops: [pickup, priced] }, input).session
      .stops;
    const [before] = opened.session.stops;

    // Assess
    expect(now).toMatchObject({
      state: 'OK',
      stateTax: 0.2,
      taxTreatment: 'ifta',
      effectivePrice: 3.139,
      counterfactual: { pumpPrice: 3.31, netPrice: 3.2, stationCount: 6 },
    });
    expect(before).toMatchObject({
      stateTax: null,
      taxTreatment: 'pump',
      effectivePrice: 3.339,
      counterfactual: null,
    });
  });

  it('announces the stop set as created', () => {
    expect(opened.events.map((e) => [e.type, e.data.change])).toEqual([['guidance.updated', 'created']]);
  });

  it('watches the dispatcher stops (no station) beside the fuel stops', () => {
    expect(tripWatchedStops(opened.session)).toEqual([
      {
        stopId: pickup.id,
        stationId: '',
        name: 'Dock 4',
        latitude: pickup.latitude,
        longitude: pickup.longitude,
      },
    ]);
    expect(tripWatchedStops(null)).toEqual([]);
  });

  it('names the trip stop of a visit: a dispatcher stop by its id, a fuel stop through its guidance stop', () => {
    const { session } = opened;
    const guidanceStop = session.stops[0];
    expect(tripStopOf(session, { stopId: pickup.id })).toEqual({ tripId: trip.id, stopId: pickup.id });
    expect(tripStopOf(session, { stopId: guidanceStop?.id as string })).toEqual({
      tripId: trip.id,
      stopId: fuelStop.id,
    });
    expect(tripStopOf(session, { stopId: 'gds_other' })).toBeNull();
    expect(tripStopOf({ ...session, tripId: null }, { stopId: pickup.id })).toBeNull();
  });
});

describe('trip events', () => {
  it('trip.started carries the trip, its vehicle and reference, keyed once per trip', () => {
    // external_ref is left to the recorder, which adds the vehicle's current one (the trip's copy
    // is the reference at creation, stale after a rename).
    expect(tripEvent('trip.started', trip)).toEqual({
      type: 'trip.started',
      dedupeKey: `trip.started:${trip.id}`,
      data: {
        trip_id: trip.id,
        vehicle_id: trip.vehicleId,
        reference: 'LOAD-1001',
        status: 'active',
      },
    });
  });

  it('trip.cancelled carries the reason when one was given', () => {
    const cancelled = { ...trip, status: 'cancelled' as const, cancelReason: 'driver sick' };
    expect(tripEvent('trip.cancelled', cancelled).data).toMatchObject({
      status: 'cancelled',
      reason: 'driver sick',
    });
    expect(tripEvent('trip.cancelled', { ...cancelled, cancelReason: null }).data).not.toHaveProperty(
      'reason',
    );
  });

  it('vehicle.stop_arrived at a trip’s dispatcher stop names the trip and the tsp_ stop, with no station', () => {
    const detection = {
      kind: 'stop_arrived' as const,
      atMs: T0,
      stop: { stopId: pickup.id, stationId: '', name: 'Dock 4', latitude: 32.9, longitude: -97.1 },
      latitude: 32.9,
      longitude: -97.1,
    };
    const event = stopArrivedEvent(trip.vehicleId, 'gd_X', detection, { tripId: trip.id, stopId: pickup.id });
    expect(event.data).toMatchObject({
      trip_id: trip.id,
      stop_id: pickup.id,
      station: null,
      guidance_id: 'gd_X',
    });
    expect(stopArrivedEvent(trip.vehicleId, 'gd_X', detection).data).not.toHaveProperty('trip_id');
  });
});
