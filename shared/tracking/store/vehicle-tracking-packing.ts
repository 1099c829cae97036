import { deflateRawSync, inflateRawSync } from 'node:zlib';
import type { GuidanceSession } from '#shared/guidance/domain/session.ts';
import type { Outbox } from '../domain/outbox.ts';
import type { ShownStop } from '../domain/shown-stops.ts';
import { initialTrackerState, type TrackerState } from '../domain/tracker.ts';

/**
 * The detection state, the session and the outbox travel as one deflated JSON blob (`state`): the
 * worker rewrites the item on every cycle of a guided truck and DynamoDB bills a write by the
 * item's size, and a session with its stops is 1.5–2.5 KB as a map but well under 1 KB deflated
 * (docs/architecture.md). What other readers need stays in plain attributes: `version`, `offline`,
 * `last_seen_ms` (conditions) and `session_status` (the health scorecard's projection). An item
 * holding `tracker`, `session` and `outbox` as maps is read as such.
 */
export interface TrackingState {
  tracker: TrackerState;
  session: GuidanceSession | null;
  outbox: Outbox | null;
  shownStops?: ShownStop[];
}

/**
 * A preset dictionary (zlib's): the field names and phrases every state repeats, so that a 2 KB
 * state deflates to about half of what it would alone. Stored blobs name the dictionary they were
 * packed with in their first byte; a new dictionary takes a new number and this one stays readable.
 */
const DICTIONARY_V1 = Buffer.from(
  [
    '"tracker":{"version":1,"processedThroughMs":"lastFix":{"recordedAtMs":"latitude":"longitude":',
    '"fuelLevelPercent":"speedKmh":"recentLevels":[{"atMs":"percent":"lastReport":{"percent":',
    '"greatCircleMilesSince":"fuelLowArmed":true,"episode":null,"visit":null,"startedAtMs":',
    '"lastStationaryAtMs":"levelBeforePercent":"stationaryLevels":"fuelingReported":false,',
    '"phase":"settling","arrived","sinceMs":"arrivedAtMs":"stop":{"stopId":',
    '"session":{"billingAccountId":"cmp_of_flt_","id":"gd_","vehicleId":"veh_","tripId":null,"tripStops":',
    '"status":"active","endReason":null,"phase":"stop_recommended","destination":{"latitude":',
    '"name":"minArrivalFuelPercent":20,"stops":[{"id":"gds_","stationId":"stn_","chain":"Independent",',
    '"address":"milesAhead":"detourMiles":"gallonsToBuy":"price":"discount":0,"netPrice":',
    '"priceIsStale":false,"reason":"Cheapest diesel in the next miles: $ net (no fleet discount), ',
    ' miles off the route. Buy gal to reach with 20% in the tank.","recommendedAtMs":',
    '"acknowledgedAtMs":null,"tripStopId":null}],"skipped":[],"announced":[{"stationId":"stn_',
    '"approachedStopIds":[],"planReason":"1 stop, gal for $; arrives at with % in the tank.",',
    '"remainingMiles":"projectedArrivalFuelPercent":"fuel":{"percent":"source":"reported",',
    '"reportedAtMs":"position":{"latitude":"forceReplan":false,"revision":"createdAtMs":',
    '"updatedAtMs":"planUpdatedAtMs":"endedAtMs":null},"outbox":null,',
    '"outbox":{"events":[{"type":"guidance.updated","dedupeKey":"data":{"vehicle_id":"veh_',
    '"guidance_id":"gd_","change":"created","stop_ids":["gds_"]}}],"fuelings":[],"archive":[],',
    '"recommendations":[{"kind":"recommended","stop":{"guidanceId":"stationName":"withdrawnAtMs":null,',
    '"due":false,"followedFuelingId":null}}]}',
  ].join(''),
);
const PACKED_WITH_V1 = 1;

/** Only what belongs in the blob: the caller's object may carry the plain attributes too. */
export const packState = ({ tracker, session, outbox, shownStops }: TrackingState) =>
  Buffer.concat([
    Buffer.of(PACKED_WITH_V1),
    deflateRawSync(
      Buffer.from(
        JSON.stringify({ tracker, session, outbox, ...(shownStops?.length ? { shownStops } : {}) }),
      ),
      { dictionary: DICTIONARY_V1 },
    ),
  ]);

export function unpackState(item: Record<string, unknown>): TrackingState {
  // An item POST /v1/fuelings created (a purchase waiting for the vehicle's first breadcrumbs): no cycle yet.
  if (item.state === undefined && item.tracker === undefined) {
    return { tracker: initialTrackerState(), session: null, outbox: null };
  }
  if (item.state instanceof Uint8Array) {
    const blob = Buffer.from(item.state);
    if (blob[0] !== PACKED_WITH_V1)
      throw new Error(`tracking state packed with unknown dictionary ${blob[0]}`);
    return JSON.parse(inflateRawSync(blob.subarray(1), { dictionary: DICTIONARY_V1 }).toString('utf8'));
  }
  return {
    tracker: item.tracker as TrackerState,
    session: (item.session as GuidanceSession | null) ?? null,
    outbox: (item.outbox as Outbox | null | undefined) ?? null,
  };
}
