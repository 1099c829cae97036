import type { FuelTaxTreatment } from '#shared/fuel-tax/domain/treatment.ts';
import type { FillCounterfactual } from '#shared/fuelings/domain/fill-counterfactual.ts';
import type { UnmatchedReason } from '#shared/fuelings/domain/match-window.ts';
import type { Verification } from '#shared/fuelings/domain/verification.ts';
import type { GuidanceStop } from '#shared/guidance/domain/session.ts';
import { stableTimedId } from '#shared/kernel/ids.ts';
import { formatTimestamp } from '#shared/kernel/time.ts';
import type { Station } from '#shared/stations/domain/station.ts';
import type { Detection } from './types.ts';

/** A fueling on the fleet's record: detected from a tank-level rise, or reported. */
export interface Fueling {
  id: string;
  vehicleId: string;
  source: 'detected' | 'reported';
  gallons: number | null;
  fueledAt: string;
  latitude: number | null;
  longitude: number | null;
  fuelLevelBeforePercent: number | null;
  fuelLevelAfterPercent: number | null;
  /** The recommended stop it matched (fueling.matched), if any. */
  guidanceId: string | null;
  stopId: string | null;
  stationId: string | null;
  createdAt: string;
  // What reported fuelings, merges and the savings report add (absent on a record that has none).
  externalRef?: string | null;
  /** The trip whose guidance the matched stop belonged to, and that trip's fuel stop (`tsp_`). */
  tripId?: string | null;
  tripStopId?: string | null;
  /** The recommended net price of the matched stop. */
  recommendedNetPrice?: number | null;
  station?: FuelingStation | null;
  price?: number | null;
  discount?: number | null;
  /** Net price paid per gallon: price − discount, or total ÷ gallons; null when unknown. */
  netPrice?: number | null;
  totalUsd?: number | null;
  odometerMiles?: number | null;
  cardTransactionRef?: string | null;
  merchantName?: string | null;
  /** The other record of the same fill (a reported one's detection, a detection's report). */
  linkedFuelingId?: string | null;
  /** On a reported fueling linked to a detection: the gallons the tank-level rise confirms. */
  detectedGallons?: number | null;
  // The price basis (fuelings/fill-pricing.ts); a record without it reads as pump prices.
  /** Two-letter state of the station, else of the fill's position; null when unknown. */
  state?: string | null;
  /** The state diesel tax in the pump price at `fueledAt` (USD/gal); null when unknown. */
  stateTax?: number | null;
  /** The vehicle's treatment (else the fleet's) when the fill was recorded. */
  taxTreatment?: FuelTaxTreatment;
  /** Net price − the credited state tax; null when the price is unknown. */
  effectivePrice?: number | null;
  /** What the fleet would have paid without our advice; null when the price is unknown. */
  counterfactual?: FillCounterfactual | null;
  /** (counterfactual pump − counterfactual net) × gallons: the fleet's card on that corridor, not a saving. */
  cardSavingsUsd?: number | null;
  /** (counterfactual net − effective price) × gallons: the fill's saving, of where it was bought. */
  routingSavingsUsd?: number | null;
  /** What a fill made elsewhere cost over the recommendation that stood (USD), else 0 or null. */
  missedSavingsUsd?: number | null;
  /** The recommended stop a fill elsewhere passed over (`gds_`), counted as advice not followed. */
  passedOverStopId?: string | null;
  /** Why the fill matched no recommendation; null when matched (may be absent). */
  unmatchedReason?: UnmatchedReason | null;
  /** A reported purchase checked against the truck's own data; null on detected fills (may be absent). */
  verification?: StoredVerification | null;
  /** Whether the fleet's card program accepts the station's chain, as the program stood when recorded; null without a rule or a station. */
  inFuelProgram?: boolean | null;
}

/** A purchase's verdict as the record keeps it (fuelings/verification.ts decides it). */
export interface StoredVerification extends Verification {
  /** When the verdict was reached. */
  checkedAt: string;
  /** Whether late breadcrumbs re-checked it already: an `unverified` verdict is re-checked once. */
  rechecked: boolean;
}

/** The catalog station a fueling was made at, as the record keeps it. */
export type FuelingStation = Pick<Station, 'id' | 'name' | 'chain' | 'latitude' | 'longitude' | 'address'>;

/** What a detected fueling keeps of the stop it matched. */
export type MatchedStopFacts = Pick<
  GuidanceStop,
  | 'id'
  | 'stationId'
  | 'name'
  | 'chain'
  | 'latitude'
  | 'longitude'
  | 'address'
  | 'price'
  | 'discount'
  | 'netPrice'
> & { tripStopId?: string | null | undefined };

/** A detected fueling as the record keeps it, with the recommended stop it matched, if any. */
export function detectedFueling(
  vehicle: { id: string; externalRef?: string | null },
  detection: Extract<Detection, { kind: 'fueling' }>,
  matched: { guidanceId: string; tripId?: string | null; stop: MatchedStopFacts } | null,
  nowMs: number,
): Fueling {
  const vehicleId = vehicle.id;
  const stop = matched?.stop ?? null;
  return {
    // Fixed by the rise itself, so a worker that detects it twice writes one record.
    id: stableTimedId('fueling', detection.startedAtMs, `${vehicleId}:${detection.startedAtMs}`),
    vehicleId,
    source: 'detected',
    gallons: detection.gallons,
    fueledAt: formatTimestamp(detection.endedAtMs),
    latitude: detection.latitude,
    longitude: detection.longitude,
    fuelLevelBeforePercent: detection.levelBeforePercent,
    fuelLevelAfterPercent: detection.levelAfterPercent,
    guidanceId: matched?.guidanceId ?? null,
    stopId: stop?.id ?? null,
    stationId: stop?.stationId ?? null,
    createdAt: formatTimestamp(nowMs),
    externalRef: vehicle.externalRef ?? null,
    tripId: matched?.tripId ?? null,
    tripStopId: stop?.tripStopId ?? null,
    recommendedNetPrice: stop?.netPrice ?? null,
    station: stop
      ? {
          id: stop.stationId,
          name: stop.name,
          chain: stop.chain,
          latitude: stop.latitude,
          longitude: stop.longitude,
          address: stop.address,
        }
      : null,
    // A detection knows no receipt: at a recommended stop it is taken at that stop's prices.
    price: stop?.price ?? null,
    discount: stop?.discount ?? null,
    netPrice: stop?.netPrice ?? null,
    totalUsd: null,
    linkedFuelingId: null,
  };
}
