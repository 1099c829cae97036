import type { TripStopRef } from '#shared/events/domain/event-payloads.ts';
import { type FuelProgram, inFuelProgram, mayRecommend } from '#shared/fuel-programs/domain/program.ts';
import type { FuelTaxTreatment } from '#shared/fuel-tax/domain/treatment.ts';
import { announce, type GuidanceUpdate } from '#shared/guidance/domain/announcement.ts';
import { stopIdOf } from '#shared/guidance/domain/recommended-stops.ts';
import {
  type GuidanceSession,
  type GuidanceStop,
  phaseForStops,
  startSession,
} from '#shared/guidance/domain/session.ts';
import type { WatchedStop } from '#shared/tracking/domain/types.ts';
import { dispatchStops, fuelStops, type Trip, type TripFuelPurchase } from './trip.ts';

/**
 * The guidance session a started trip opens: toward the trip's destination, its recommended stops
 * the trip's fuel stops (each naming its `tsp_` id), watching the dispatcher stops too. From then
 * on the guidance worker keeps it up to date like any session (a stop it keeps stays that trip
 * stop; a truck that strays gets a new plan). `progressMiles`: how far along the trip's route the
 * vehicle is, so the stops' miles ahead count from the truck.
 *
 * The fleet's fuel card program is the one in force now, not the one the trip was planned under:
 * a stop it now refuses is not announced, and the session is marked to plan afresh at its first
 * cycle (over the accepted stations); `inFuelProgram` is each stop's standing under it.
 */
export function tripGuidanceSession(
  fleetId: string,
  trip: Trip,
  input: {
    guidanceId: string;
    minArrivalFuelPercent: number;
    progressMiles: number;
    nowMs: number;
    /** The fleet's fuel card program now. */
    program: FuelProgram;
  },
): GuidanceUpdate {
  const { nowMs, program } = input;
  const planned = fuelStops(trip).filter((stop) => stop.fuel);
  const allowed = planned.filter((stop) => stop.fuel && mayRecommend(program, stop.fuel.station.chain));
  const refused = allowed.length < planned.length;
  const started: GuidanceSession = {
    ...startSession({
      id: input.guidanceId,
      vehicleId: trip.vehicleId,
      destination: trip.destination,
      minArrivalFuelPercent: input.minArrivalFuelPercent,
      // A plan made from an assumed level keeps assuming it, burned down from where the truck is now.
      ...(trip.fuelPlan?.fuelLevelSource === 'assumed'
        ? { assumedDepartureFuelPercent: trip.fuelPlan.startFuelPercent }
        : {}),
      nowMs,
    }),
    tripId: trip.id,
    ...(refused ? { forceReplan: true } : {}),
    tripStops: dispatchStops(trip).map((stop) => ({
      stopId: stop.id,
      name: stop.name,
      latitude: stop.latitude,
      longitude: stop.longitude,
    })),
  };
  const stops: GuidanceStop[] = allowed.flatMap((stop) => {
    const fuel = stop.fuel;
    if (!fuel) return [];
    return [
      {
        id: stopIdOf(started, fuel.station.id),
        stationId: fuel.station.id,
        name: fuel.station.name,
        chain: fuel.station.chain,
        latitude: fuel.station.latitude,
        longitude: fuel.station.longitude,
        address: fuel.station.address,
        milesAhead: Math.max(0, Math.round((fuel.milesAlongRoute - input.progressMiles) * 10) / 10),
        detourMiles: fuel.detourMiles,
        // As guidance gives them: no gallons to buy from a level the sensor did not report.
        gallonsToBuy:
          (trip.fuelPlan?.fuelLevelSource ?? 'reported') === 'reported' ? fuel.gallonsToBuy : null,
        price: fuel.price,
        discount: fuel.discount,
        netPrice: fuel.netPrice,
        priceIsStale: fuel.priceIsStale,
        reason: fuel.reason,
        recommendedAtMs: nowMs,
        acknowledgedAtMs: null,
        tripStopId: stop.id,
        inFuelProgram: inFuelProgram(program, fuel.station.chain),
        ...tripStopPriceBasis(fuel, trip.fuelPlan?.taxTreatment),
      },
    ];
  });
  if (stops.length === 0) return { session: started, events: [] };
  return announce(fleetId, started, {
    ...started,
    phase: phaseForStops(stops),
    stops,
    // The trip's plan no longer stands once a stop of it is refused: the first cycle replans.
    planReason: refused ? REFUSED_STOP_REASON : (trip.fuelPlan?.reason ?? null),
    planStatus: refused ? null : (trip.fuelPlan?.status ?? null),
    remainingMiles: trip.route
      ? Math.max(0, Math.round((trip.route.distanceMiles - input.progressMiles) * 10) / 10)
      : null,
    projectedArrivalFuelPercent: trip.fuelPlan?.projectedArrivalFuelPercent ?? null,
    planUpdatedAtMs: nowMs,
  });
}

const REFUSED_STOP_REASON =
  'The fleet’s fuel card program now refuses a stop planned with the trip: the plan is made again over accepted stations at the next position.';

/** The stops the arrival detector watches: the recommended fuel stops, and a trip's dispatcher stops. */
export function tripWatchedStops(session: Pick<GuidanceSession, 'tripStops'> | null): WatchedStop[] {
  // No station at a dispatcher stop: an empty station id keeps it out of fueling and replan logic.
  return (session?.tripStops ?? []).map((stop) => ({
    stopId: stop.stopId,
    stationId: '',
    name: stop.name ?? 'trip stop',
    latitude: stop.latitude,
    longitude: stop.longitude,
  }));
}

/** The trip stop a watched stop is, when the session follows a trip: a dispatcher stop or a trip fuel stop. */
export function tripStopOf(
  session: Pick<GuidanceSession, 'tripId' | 'tripStops' | 'stops'> | null,
  watched: Pick<WatchedStop, 'stopId'>,
): TripStopRef | null {
  const tripId = session?.tripId;
  if (!session || !tripId) return null;
  if (session.tripStops?.some((stop) => stop.stopId === watched.stopId))
    return { tripId, stopId: watched.stopId };
  const tripStopId = session.stops.find((stop) => stop.id === watched.stopId)?.tripStopId;
  return tripStopId ? { tripId, stopId: tripStopId } : null;
}

/**
 * A trip fuel stop's price basis as its guidance stop carries it. A stop planned before the basis
 * existed was priced at the pump: its effective price is its net price, its state unknown.
 */
function tripStopPriceBasis(
  fuel: TripFuelPurchase,
  treatment: FuelTaxTreatment | undefined,
): Pick<GuidanceStop, 'state' | 'stateTax' | 'taxTreatment' | 'effectivePrice' | 'counterfactual'> {
  const counterfactual = fuel.counterfactual ?? null;
  return {
    ...(fuel.state ? { state: fuel.state } : {}),
    stateTax: fuel.stateTax ?? null,
    taxTreatment: treatment ?? 'pump',
    effectivePrice: fuel.effectivePrice ?? fuel.netPrice,
    // As guidance shows it: null when no station but the stop itself was in reach.
    counterfactual: counterfactual && counterfactual.stationCount > 1 ? counterfactual : null,
  };
}
