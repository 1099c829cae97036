import type * as z from 'zod/mini';
import { roundCoordinate } from '#shared/kernel/rounding.ts';
import type { Fueling, StoredVerification } from '#shared/tracking/domain/fueling-record.ts';
import { basisOfFill, fillEffectivePrice } from '../domain/fill-pricing.ts';
import type { fuelingSchema, purchaseVerificationSchema } from './schemas.ts';

const coordinate = (value: number | null | undefined) =>
  value === null || value === undefined ? null : roundCoordinate(value);

/** The fueling object; fields a record lacks read as null. */
export function fuelingResource(fueling: Fueling): z.infer<typeof fuelingSchema> {
  const station = fueling.station ?? null;
  const counterfactual = fueling.counterfactual ?? null;
  return {
    id: fueling.id,
    vehicle_id: fueling.vehicleId,
    external_ref: fueling.externalRef ?? null,
    source: fueling.source,
    fueled_at: fueling.fueledAt,
    gallons: fueling.gallons,
    price_usd_per_gallon: fueling.price ?? null,
    discount_usd_per_gallon: fueling.discount ?? null,
    net_price_usd_per_gallon: fueling.netPrice ?? null,
    total_usd: fueling.totalUsd ?? null,
    state: fueling.state ?? null,
    state_tax_usd_per_gallon: fueling.stateTax ?? null,
    fuel_tax_treatment: basisOfFill(fueling).treatment,
    effective_price_usd_per_gallon: fueling.effectivePrice ?? fillEffectivePrice(fueling),
    counterfactual: counterfactual
      ? {
          source: counterfactual.source,
          pump_price_usd_per_gallon: counterfactual.pumpPrice,
          net_price_usd_per_gallon: counterfactual.netPrice,
          station_count: counterfactual.stationCount,
        }
      : null,
    benchmark_price_usd_per_gallon: counterfactual?.netPrice ?? null,
    card_savings_usd: fueling.cardSavingsUsd ?? null,
    routing_savings_usd: fueling.routingSavingsUsd ?? null,
    station: station
      ? {
          ...station,
          latitude: roundCoordinate(station.latitude),
          longitude: roundCoordinate(station.longitude),
        }
      : null,
    latitude: coordinate(fueling.latitude),
    longitude: coordinate(fueling.longitude),
    odometer_miles: fueling.odometerMiles ?? null,
    card_transaction_ref: fueling.cardTransactionRef ?? null,
    merchant_name: fueling.merchantName ?? null,
    fuel_level_before_percent: fueling.fuelLevelBeforePercent,
    fuel_level_after_percent: fueling.fuelLevelAfterPercent,
    match:
      fueling.guidanceId && fueling.stopId
        ? {
            guidance_id: fueling.guidanceId,
            trip_id: fueling.tripId ?? null,
            stop_id: fueling.tripStopId ?? fueling.stopId,
            recommended_net_price_usd_per_gallon: fueling.recommendedNetPrice ?? null,
          }
        : null,
    linked_fueling_id: fueling.linkedFuelingId ?? null,
    detected_gallons: fueling.detectedGallons ?? null,
    missed_savings_usd: fueling.missedSavingsUsd ?? null,
    unmatched_reason: fueling.guidanceId && fueling.stopId ? null : (fueling.unmatchedReason ?? null),
    verification: fueling.verification ? verificationResource(fueling.verification) : null,
    created_at: fueling.createdAt,
  };
}

/** A stored verdict as the fueling and `fueling.flagged` show it (whether it was re-checked stays inside). */
export function verificationResource(
  verification: StoredVerification,
): z.infer<typeof purchaseVerificationSchema> {
  return {
    status: verification.status,
    reasons: verification.reasons.map(({ code, detail }) => ({ code, detail })),
    checked_at: verification.checkedAt,
  };
}
