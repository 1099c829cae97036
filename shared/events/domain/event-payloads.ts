import type * as z from 'zod/mini';
import type { FuelTaxTreatment } from '#shared/fuel-tax/domain/treatment.ts';
import { GUIDANCE_POLICY } from '#shared/guidance/domain/policy.ts';
import {
  type GuidanceSession,
  type GuidanceStop,
  planStatusOf,
  type StopSetChange,
} from '#shared/guidance/domain/session.ts';
import { haversineMiles } from '#shared/kernel/distance.ts';
import { roundCoordinate } from '#shared/kernel/rounding.ts';
import { formatTimestamp } from '#shared/kernel/time.ts';
import type { Fueling, StoredVerification } from '#shared/tracking/domain/fueling-record.ts';
import type { Detection, WatchedStop } from '#shared/tracking/domain/types.ts';
import type { Trip } from '#shared/trips/domain/trip.ts';
import type { EventDataSchemas } from '../api/event-data-schemas.ts';
import type { EventType } from './events.ts';

/**
 * What each event carries, built in one place so the public `data` of a type cannot drift from
 * its published schema: each builder's `data` is typed by that type's schema
 * (shared/events/api/event-data-schemas.ts, the schemas openapi.json publishes; only their types are
 * imported here). The use cases decide which events happen; these decide what they say and under
 * which dedupe key they are recorded once.
 */

/** The `data` of an event type as published: its schema's input type. */
export type PublishedEventData<T extends EventType> = z.input<EventDataSchemas[T]>;

/**
 * Members the recorder fills in when a builder leaves them out: a vehicle event's `external_ref`
 * is read from the vehicle at recording time (shared/events/usecases/event-recording.ts), so no builder needs the vehicle.
 */
type FilledInByRecorder = 'external_ref';

/** The `data` a builder writes for a type: the published members, those the recorder fills in optional. */
export type EventData<T extends EventType> = T extends EventType
  ? Omit<PublishedEventData<T>, FilledInByRecorder> &
      Partial<Pick<PublishedEventData<T>, Extract<keyof PublishedEventData<T>, FilledInByRecorder>>>
  : never;

/** A type's `data` with every published member, the sometimes-there ones too (test sends show them all). */
export type FullEventData<T extends EventType> = Required<PublishedEventData<T>>;

/** An event of one catalog type, as a change puts it in the outbox. */
export interface CatalogEvent<T extends EventType> {
  type: T;
  dedupeKey: string;
  data: EventData<T>;
}

type DetectionOf<K extends Detection['kind']> = Extract<Detection, { kind: K }>;

/** guidance.updated: the data holds vehicle_id and guidance_id (docs/api-guide.md#events-and-webhooks) and what changed. */
export function guidanceUpdatedEvent(
  fleetId: string,
  session: GuidanceSession,
  change: StopSetChange,
): CatalogEvent<'guidance.updated'> {
  return {
    type: 'guidance.updated',
    // A session ends once; otherwise each announcement has its own revision.
    dedupeKey: `guidance.updated:${fleetId}:${session.id}:${session.status === 'active' ? session.revision : session.status}`,
    data: {
      vehicle_id: session.vehicleId,
      guidance_id: session.id,
      change,
      status: session.status,
      phase: session.phase,
      plan_status: planStatusOf(session),
      stop_ids: session.stops.map((s) => s.id),
      ...(session.endReason ? { reason: session.endReason } : {}),
    },
  };
}

export function stopApproachingEvent(
  session: GuidanceSession,
  stop: GuidanceStop,
): CatalogEvent<'guidance.stop_approaching'> {
  return {
    type: 'guidance.stop_approaching',
    dedupeKey: `guidance.stop_approaching:${session.id}:${stop.id}`,
    data: {
      vehicle_id: session.vehicleId,
      guidance_id: session.id,
      stop_id: stop.id,
      station: {
        id: stop.stationId,
        name: stop.name,
        latitude: roundCoordinate(stop.latitude),
        longitude: roundCoordinate(stop.longitude),
      },
      miles_ahead: stop.milesAhead,
      gallons_to_buy: stop.gallonsToBuy,
    },
  };
}

/** The trip stop a detected visit was at: its trip and its `tsp_` id. */
export interface TripStopRef {
  tripId: string;
  stopId: string;
}

/**
 * A visit at a trip's stop names the trip and the trip stop (`stop_id` is then the `tsp_` id, the
 * one the trip shows); otherwise the guidance stop. `station` is null at a dispatcher stop.
 */
const stopData = (guidanceId: string | null, stop: WatchedStop, tripStop: TripStopRef | null) => ({
  guidance_id: guidanceId,
  stop_id: tripStop?.stopId ?? stop.stopId,
  station: stop.stationId
    ? {
        id: stop.stationId,
        name: stop.name,
        latitude: roundCoordinate(stop.latitude),
        longitude: roundCoordinate(stop.longitude),
      }
    : null,
  ...(tripStop ? { trip_id: tripStop.tripId } : {}),
});

/** Detection events are keyed by the breadcrumb time that caused them. */
export function stopArrivedEvent(
  vehicleId: string,
  guidanceId: string | null,
  detection: DetectionOf<'stop_arrived'>,
  tripStop: TripStopRef | null = null,
): CatalogEvent<'vehicle.stop_arrived'> {
  return {
    type: 'vehicle.stop_arrived',
    dedupeKey: `vehicle.stop_arrived:${vehicleId}:${detection.atMs}`,
    data: {
      vehicle_id: vehicleId,
      ...stopData(guidanceId, detection.stop, tripStop),
      arrived_at: formatTimestamp(detection.atMs),
      latitude: roundCoordinate(detection.latitude),
      longitude: roundCoordinate(detection.longitude),
    },
  };
}

export function stopDepartedEvent(
  vehicleId: string,
  guidanceId: string | null,
  detection: DetectionOf<'stop_departed'>,
  tripStop: TripStopRef | null = null,
): CatalogEvent<'vehicle.stop_departed'> {
  return {
    type: 'vehicle.stop_departed',
    dedupeKey: `vehicle.stop_departed:${vehicleId}:${detection.atMs}`,
    data: {
      vehicle_id: vehicleId,
      ...stopData(guidanceId, detection.stop, tripStop),
      arrived_at: formatTimestamp(detection.arrivedAtMs),
      departed_at: formatTimestamp(detection.atMs),
      dwell_minutes: detection.dwellMinutes,
    },
  };
}

export function fuelLowEvent(
  vehicleId: string,
  detection: DetectionOf<'fuel_low'>,
): CatalogEvent<'vehicle.fuel_low'> {
  return {
    type: 'vehicle.fuel_low',
    dedupeKey: `vehicle.fuel_low:${vehicleId}:${detection.atMs}`,
    data: {
      vehicle_id: vehicleId,
      fuel_level_percent: detection.fuelLevelPercent,
      threshold_percent: detection.thresholdPercent,
      latitude: roundCoordinate(detection.latitude),
      longitude: roundCoordinate(detection.longitude),
      recorded_at: formatTimestamp(detection.atMs),
    },
  };
}

/** Keyed by the fueling's id, which detection fixes: the same rise is recorded once. */
export function fuelingRecordedEvent(
  fuelingId: string,
  vehicleId: string,
  detection: DetectionOf<'fueling'>,
): CatalogEvent<'fueling.recorded'> {
  return {
    type: 'fueling.recorded',
    dedupeKey: `fueling.recorded:${fuelingId}`,
    data: {
      fueling_id: fuelingId,
      vehicle_id: vehicleId,
      source: 'detected',
      gallons: detection.gallons,
      fuel_level_before_percent: detection.levelBeforePercent,
      fuel_level_after_percent: detection.levelAfterPercent,
      latitude: roundCoordinate(detection.latitude),
      longitude: roundCoordinate(detection.longitude),
      started_at: formatTimestamp(detection.startedAtMs),
      fueled_at: formatTimestamp(detection.endedAtMs),
    },
  };
}

/** A fueling (detected or reported) made at a recommended guidance stop or a trip fuel stop. */
export interface MatchedFill {
  fuelingId: string;
  vehicleId: string;
  externalRef: string | null;
  guidanceId: string;
  tripId: string | null;
  /** The guidance stop (`gds_`) and, when the session follows a trip, the trip's fuel stop (`tsp_`). */
  stopId: string;
  tripStopId: string | null;
  station: { id: string; name: string; state: string | null };
  gallons: number | null;
  recommendedGallons: number | null;
  /** From the fill's position (a reported fill that sent none is placed at the station it names). */
  distanceMiles: number | null;
  netPrice: number | null;
  recommendedNetPrice: number;
  /** The price basis both effective prices are on. */
  stateTax: number | null;
  taxTreatment: FuelTaxTreatment;
  /** The fill's net price − the credited state tax; null when its net price is unknown. */
  effectivePrice: number | null;
  recommendedEffectivePrice: number;
}

/** Keyed by the fueling's id: a fill is announced matched once. `stop_id` is the trip's stop when there is one. */
export function fuelingMatchedEvent(fill: MatchedFill): CatalogEvent<'fueling.matched'> {
  return {
    type: 'fueling.matched',
    dedupeKey: `fueling.matched:${fill.fuelingId}`,
    data: {
      fueling_id: fill.fuelingId,
      vehicle_id: fill.vehicleId,
      external_ref: fill.externalRef,
      guidance_id: fill.guidanceId,
      trip_id: fill.tripId,
      stop_id: fill.tripStopId ?? fill.stopId,
      station_id: fill.station.id,
      station: fill.station,
      gallons: fill.gallons,
      recommended_gallons: fill.recommendedGallons,
      distance_miles: fill.distanceMiles === null ? null : Math.round(fill.distanceMiles * 100) / 100,
      net_price_usd_per_gallon: fill.netPrice,
      recommended_net_price_usd_per_gallon: fill.recommendedNetPrice,
      state_tax_usd_per_gallon: fill.stateTax,
      fuel_tax_treatment: fill.taxTreatment,
      effective_price_usd_per_gallon: fill.effectivePrice,
      recommended_effective_price_usd_per_gallon: fill.recommendedEffectivePrice,
    },
  };
}

/**
 * A reported purchase whose verdict is `flagged` (on receipt, or when late breadcrumbs re-checked
 * it). Keyed by the fueling's id: a purchase is announced flagged once.
 */
export function fuelingFlaggedEvent(
  fueling: Pick<
    Fueling,
    'id' | 'vehicleId' | 'externalRef' | 'fueledAt' | 'gallons' | 'station' | 'cardTransactionRef'
  >,
  verification: StoredVerification,
): CatalogEvent<'fueling.flagged'> {
  return {
    type: 'fueling.flagged',
    dedupeKey: `fueling.flagged:${fueling.id}`,
    data: {
      fueling_id: fueling.id,
      vehicle_id: fueling.vehicleId,
      external_ref: fueling.externalRef ?? null,
      fueled_at: fueling.fueledAt,
      gallons: fueling.gallons ?? 0,
      station: fueling.station
        ? { id: fueling.station.id, name: fueling.station.name, chain: fueling.station.chain }
        : null,
      card_transaction_ref: fueling.cardTransactionRef ?? null,
      verification: {
        status: verification.status,
        reasons: verification.reasons.map(({ code, detail }) => ({ code, detail })),
        checked_at: verification.checkedAt,
      },
    },
  };
}

/** A detected fill at the session's recommended stop, as fueling.matched tells it. */
export function detectedMatchedFill(
  fuelingId: string,
  vehicle: { id: string; externalRef: string },
  session: Pick<GuidanceSession, 'id' | 'tripId'>,
  stop: Pick<
    GuidanceStop,
    | 'id'
    | 'stationId'
    | 'name'
    | 'gallonsToBuy'
    | 'netPrice'
    | 'latitude'
    | 'longitude'
    | 'state'
    | 'stateTax'
    | 'taxTreatment'
    | 'effectivePrice'
  > & {
    tripStopId?: string | null | undefined;
  },
  detection: DetectionOf<'fueling'>,
): MatchedFill {
  // A stop shown before stops carried a price basis reads as pump prices, untaxed.
  const effective = stop.effectivePrice ?? stop.netPrice;
  return {
    fuelingId,
    vehicleId: vehicle.id,
    externalRef: vehicle.externalRef,
    guidanceId: session.id,
    tripId: session.tripId ?? null,
    stopId: stop.id,
    tripStopId: stop.tripStopId ?? null,
    station: { id: stop.stationId, name: stop.name, state: stop.state ?? null },
    gallons: detection.gallons,
    recommendedGallons: stop.gallonsToBuy,
    distanceMiles: haversineMiles(stop, detection),
    // A detection knows no receipt: the fill is taken at the recommended station's prices.
    netPrice: stop.netPrice,
    recommendedNetPrice: stop.netPrice,
    stateTax: stop.stateTax ?? null,
    taxTreatment: stop.taxTreatment ?? 'pump',
    effectivePrice: effective,
    recommendedEffectivePrice: effective,
  };
}

/** `lastSeenMs`: what the vehicle was last heard at, stored when the sweep marked it offline. */
export function vehicleOfflineEvent(vehicleId: string, lastSeenMs: number): CatalogEvent<'vehicle.offline'> {
  return {
    type: 'vehicle.offline',
    dedupeKey: `vehicle.offline:${vehicleId}:${lastSeenMs}`,
    data: {
      vehicle_id: vehicleId,
      last_seen_at: formatTimestamp(lastSeenMs),
      offline_after_minutes: GUIDANCE_POLICY.offlineAfterMinutes,
    },
  };
}

/**
 * `offlineLastSeenMs`: the last-seen time the vehicle went offline with; `heard`: the breadcrumb
 * that brings it back.
 */
export function vehicleOnlineEvent(
  vehicleId: string,
  offlineLastSeenMs: number | null,
  heard: { receivedAtMs: number; latitude: number; longitude: number },
): CatalogEvent<'vehicle.online'> {
  return {
    type: 'vehicle.online',
    // One per offline episode, whichever breadcrumb ends it: keyed by the last-seen time that went offline.
    dedupeKey: `vehicle.online:${vehicleId}:${offlineLastSeenMs}`,
    data: {
      vehicle_id: vehicleId,
      last_seen_at: formatTimestamp(heard.receivedAtMs),
      offline_since_last_seen_at: offlineLastSeenMs === null ? null : formatTimestamp(offlineLastSeenMs),
      latitude: roundCoordinate(heard.latitude),
      longitude: roundCoordinate(heard.longitude),
    },
  };
}

type TripEventType = 'trip.started' | 'trip.completed' | 'trip.cancelled';

/** The status each trip event announces: the one its move ends in (trips/trip.ts, transition). */
const TRIP_EVENT_STATUS = {
  'trip.started': 'active',
  'trip.completed': 'completed',
  'trip.cancelled': 'cancelled',
} as const satisfies Record<TripEventType, Trip['status']>;

/** trip.started, trip.completed, trip.cancelled: once per trip and type (a trip makes each move once). */
export function tripEvent<T extends TripEventType>(
  type: T,
  trip: Pick<Trip, 'id' | 'vehicleId' | 'reference' | 'cancelReason'>,
): CatalogEvent<T> {
  // No external_ref here: the recorder adds the vehicle's current one. The trip's copy is the
  // reference at creation, stale once the vehicle is renamed.
  const data = {
    trip_id: trip.id,
    vehicle_id: trip.vehicleId,
    reference: trip.reference,
    status: TRIP_EVENT_STATUS[type],
    ...(type === 'trip.cancelled' && trip.cancelReason !== null ? { reason: trip.cancelReason } : {}),
  } satisfies EventData<TripEventType>;
  return { type, dedupeKey: `${type}:${trip.id}`, data: data as EventData<T> };
}
