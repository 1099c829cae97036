import type { FullEventData } from '#shared/events/domain/event-payloads.ts';
import type { EventType } from '#shared/events/domain/events.ts';
import { fleetResource } from '#shared/fleets/api/serializers.ts';
import { newCompanyFleet } from '#shared/fleets/domain/fleet.ts';
import { verifyPurchase } from '#shared/fuelings/domain/verification.ts';
import { GUIDANCE_POLICY } from '#shared/guidance/domain/policy.ts';
import { stableId } from '#shared/kernel/ids.ts';
import { formatTimestamp } from '#shared/kernel/time.ts';
import { DETECTION_POLICY } from '#shared/tracking/domain/policy.ts';

const MINUTE_MS = 60_000;

/**
 * Sample ids: well-formed (a receiver's id checks pass) and the same in every test send. Marked
 * pure: the functions that import this module through the webhook wiring but never test-send drop them.
 */
const sample = {
  vehicleId: /* @__PURE__ */ stableId('vehicle', 'test-send:vehicle'),
  externalRef: 'TRUCK-1042',
  guidanceId: /* @__PURE__ */ stableId('guidance', 'test-send:guidance'),
  stopId: /* @__PURE__ */ stableId('guidanceStop', 'test-send:stop'),
  fuelingId: /* @__PURE__ */ stableId('fueling', 'test-send:fueling'),
  flaggedFuelingId: /* @__PURE__ */ stableId('fueling', 'test-send:flagged-fueling'),
  tripId: /* @__PURE__ */ stableId('trip', 'test-send:trip'),
  tripStopId: /* @__PURE__ */ stableId('tripStop', 'test-send:trip-stop'),
  station: {
    id: /* @__PURE__ */ stableId('station', 'test-send:station'),
    name: "Love's Travel Stop #284 (I-40, Amarillo)",
    latitude: 35.19321,
    longitude: -101.75431,
  },
};

/**
 * What a test send (POST /v1/webhooks/{id}/test) carries in `data`: for every type whose data is
 * published, every member of it, the sometimes-there ones too, with realistic values, as if one
 * truck (TRUCK-1042) had just refuelled at a Love's in Amarillo on its way to Denver. The type
 * makes a sample required for each such type: a type that publishes its data fields cannot be
 * added to the catalog without one (a unit test also compares each with its catalog entry).
 */
export function testEventSamples(
  nowMs: number,
  fleetId: string,
): {
  [T in EventType]: FullEventData<T>;
} {
  const at = (minutesAgo: number) => formatTimestamp(nowMs - minutesAgo * MINUTE_MS);
  const vehicle = { vehicle_id: sample.vehicleId, external_ref: sample.externalRef };
  const stop = { guidance_id: sample.guidanceId, stop_id: sample.stopId, station: sample.station };
  // A visit at a trip's fuel stop names the trip, and its stop id is the trip stop's.
  const tripStop = { ...stop, stop_id: sample.tripStopId };
  const trip = {
    trip_id: sample.tripId,
    ...vehicle,
    reference: 'LOAD-88213',
  };
  return {
    'guidance.updated': {
      ...vehicle,
      guidance_id: sample.guidanceId,
      change: 'cleared',
      status: 'completed',
      phase: 'arrived',
      plan_status: 'no_stop_needed',
      stop_ids: [],
      reason: 'arrived',
    },
    'guidance.stop_approaching': {
      ...vehicle,
      ...stop,
      miles_ahead: 8.4,
      gallons_to_buy: 112.5,
    },
    'vehicle.stop_arrived': {
      ...vehicle,
      ...tripStop,
      arrived_at: at(31),
      latitude: 35.19318,
      longitude: -101.75422,
      trip_id: sample.tripId,
    },
    'vehicle.stop_departed': {
      ...vehicle,
      ...tripStop,
      arrived_at: at(31),
      departed_at: at(6),
      dwell_minutes: 25,
      trip_id: sample.tripId,
    },
    'trip.started': { ...trip, status: 'active' },
    'trip.completed': { ...trip, status: 'completed' },
    'trip.cancelled': { ...trip, status: 'cancelled', reason: 'Load re-tendered to another carrier' },
    'fueling.recorded': {
      fueling_id: sample.fuelingId,
      ...vehicle,
      source: 'detected',
      gallons: 113.4,
      fuel_level_before_percent: 21.5,
      fuel_level_after_percent: 97.1,
      latitude: 35.19318,
      longitude: -101.75422,
      started_at: at(24),
      fueled_at: at(12),
    },
    'fueling.matched': {
      fueling_id: sample.fuelingId,
      ...vehicle,
      guidance_id: sample.guidanceId,
      trip_id: sample.tripId,
      stop_id: sample.tripStopId,
      station_id: sample.station.id,
      station: { id: sample.station.id, name: sample.station.name, state: 'TX' },
      gallons: 113.4,
      recommended_gallons: 112.5,
      distance_miles: 0.01,
      net_price_usd_per_gallon: 3.279,
      recommended_net_price_usd_per_gallon: 3.279,
      // Texas credits 20.0¢ a gallon on the IFTA return.
      state_tax_usd_per_gallon: 0.2,
      fuel_tax_treatment: 'ifta',
      effective_price_usd_per_gallon: 3.079,
      recommended_effective_price_usd_per_gallon: 3.079,
    },
    // The card says 180 gal at the Love's the truck stood at: more than its 150 gal tank (a second
    // truck filled on the same card). The verdict is the rules' own, on these figures.
    'fueling.flagged': {
      fueling_id: sample.flaggedFuelingId,
      ...vehicle,
      fueled_at: at(12),
      gallons: 180,
      station: { id: sample.station.id, name: sample.station.name, chain: "Love's" },
      card_transaction_ref: 'EFS-7741-0091-2231',
      verification: {
        ...verifyPurchase({
          purchase: {
            fueledAtMs: nowMs - 12 * MINUTE_MS,
            gallons: 180,
            station: sample.station,
            position: null,
          },
          tankSizeGallons: 150,
          breadcrumbs: [
            {
              recordedAtMs: nowMs - 18 * MINUTE_MS,
              latitude: 35.19318,
              longitude: -101.75422,
              fuelLevelPercent: null,
            },
          ],
          detectedFills: [],
        }),
        checked_at: at(11),
      },
    },
    'vehicle.fuel_low': {
      ...vehicle,
      fuel_level_percent: 19.6,
      threshold_percent: DETECTION_POLICY.fuelLowThresholdPercent,
      latitude: 35.22114,
      longitude: -101.47402,
      recorded_at: at(48),
    },
    'vehicle.offline': {
      ...vehicle,
      last_seen_at: at(GUIDANCE_POLICY.offlineAfterMinutes + 1),
      offline_after_minutes: GUIDANCE_POLICY.offlineAfterMinutes,
    },
    'vehicle.online': {
      ...vehicle,
      last_seen_at: at(0),
      offline_since_last_seen_at: at(42),
      latitude: 35.19318,
      longitude: -101.75422,
    },
    'fleet.provisioned': {
      fleet: fleetResource(
        newCompanyFleet(
          {
            id: fleetId,
            name: 'Acme Freight — Dallas terminal',
            externalRef: 'ACME-DAL',
            contactEmail: 'dispatch@acme-freight.example',
            timezone: 'America/Chicago',
          },
          at(0),
        ),
      ),
    },
  };
}

/** The `data` of a test send of `type`; `{}` for a type whose data fields are not published yet. */
export function testEventData(type: string, nowMs: number, fleetId: string): Record<string, unknown> {
  const samples: Partial<Record<string, Record<string, unknown>>> = testEventSamples(nowMs, fleetId);
  return samples[type] ?? {};
}
