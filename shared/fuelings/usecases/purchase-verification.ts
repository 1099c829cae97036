import { fuelingFlaggedEvent } from '#shared/events/domain/event-payloads.ts';
import { formatTimestamp } from '#shared/kernel/time.ts';
import type { Fueling, StoredVerification } from '#shared/tracking/domain/fueling-record.ts';
import type { OutboxEvent, RecheckedPurchase } from '#shared/tracking/domain/outbox.ts';
import type { RecentPositions } from '#shared/tracking/domain/positions.ts';
import type { VehiclePositionStore } from '#shared/tracking/store/vehicle-positions.ts';
import type { Vehicle } from '#shared/vehicles/domain/vehicle.ts';
import {
  type VerificationBreadcrumb,
  type VerificationInput,
  verifyPurchase,
} from '../domain/verification.ts';
import { type PendingVerification, recheckWindow } from '../domain/verification-recheck.ts';
import type { FuelingStore } from '../store/fuelings.ts';

/*
 * Loading what a reported purchase is checked against (the vehicle's breadcrumbs and detected
 * fills around it) and reaching its verdict: the same for POST /v1/fuelings and for the worker's
 * re-check after late breadcrumbs (fuelings/verification.ts holds the rules).
 */

export interface VehicleDataDeps {
  positions: Pick<VehiclePositionStore, 'historySince'>;
  fuelings: Pick<FuelingStore, 'ofVehicleBetween'>;
}

/** The vehicle's own data over a span: its breadcrumbs and the fills its tank level showed. */
export interface VehicleData {
  breadcrumbs: VerificationBreadcrumb[];
  detectedFills: { id: string; fueledAtMs: number; gallons: number | null }[];
  /** The card purchases reported for it (a purchase is checked with the others around it). */
  reportedPurchases: ReportedPurchase[];
}

/** A reported purchase as the check of another one sees it. */
export type ReportedPurchase = Pick<
  Fueling,
  'id' | 'fueledAt' | 'gallons' | 'cardTransactionRef' | 'linkedFuelingId'
>;

/**
 * Whether `other` is another purchase than `fueling`, not the same one again: not the same record
 * (a re-send has the same id), not the same card transaction, not linked to the same detected
 * fill (one fill reported twice).
 */
export function isAnotherPurchase(fueling: ReportedPurchase, other: ReportedPurchase): boolean {
  if (other.id === fueling.id) return false;
  if (fueling.cardTransactionRef && other.cardTransactionRef === fueling.cardTransactionRef) return false;
  if (fueling.linkedFuelingId && other.linkedFuelingId === fueling.linkedFuelingId) return false;
  return true;
}

/** The span a purchase is checked over: the widest window the rules read. */
export const verificationSpan = (fueling: Pick<Fueling, 'fueledAt'>) => recheckWindow(fueling);

/**
 * The vehicle's breadcrumbs (history and the position item's ring) and detected fills within
 * [fromMs, toMs]: one history query and one fuelings query, whatever the number of purchases in it.
 */
export async function vehicleDataBetween(
  deps: VehicleDataDeps,
  fleetId: string,
  vehicleId: string,
  fromMs: number,
  toMs: number,
  /** The position item as just read (the worker has it), saving a read of it. */
  positions?: RecentPositions,
): Promise<VehicleData> {
  const [points, fills] = await Promise.all([
    deps.positions.historySince(fleetId, vehicleId, fromMs - 1, toMs, positions),
    deps.fuelings.ofVehicleBetween(fleetId, vehicleId, formatTimestamp(fromMs), formatTimestamp(toMs)),
  ]);
  return {
    breadcrumbs: points.map(({ recordedAtMs, latitude, longitude, fuelLevelPercent }) => ({
      recordedAtMs,
      latitude,
      longitude,
      fuelLevelPercent,
    })),
    detectedFills: fills.flatMap((fill) =>
      fill.source === 'detected'
        ? [{ id: fill.id, fueledAtMs: Date.parse(fill.fueledAt), gallons: fill.gallons }]
        : [],
    ),
    reportedPurchases: fills.filter((fill) => fill.source === 'reported'),
  };
}

/**
 * A reported purchase's verdict on the vehicle's data: at the station it names or was placed at,
 * else at its own coordinates.
 */
export function purchaseVerdict(
  fueling: ReportedPurchase & Pick<Fueling, 'station' | 'latitude' | 'longitude'>,
  tankSizeGallons: number | null,
  data: VehicleData,
  checkedAtMs: number,
  rechecked: boolean,
  /** Purchases of the same request not recorded yet. */
  alongside: readonly ReportedPurchase[] = [],
): StoredVerification {
  const station = fueling.station ?? null;
  const others = new Map<string, ReportedPurchase>();
  for (const other of [...data.reportedPurchases, ...alongside]) {
    if (isAnotherPurchase(fueling, other)) others.set(other.id, other);
  }
  const input: VerificationInput = {
    purchase: {
      fueledAtMs: Date.parse(fueling.fueledAt),
      gallons: fueling.gallons ?? 0,
      station: station ? { latitude: station.latitude, longitude: station.longitude } : null,
      position:
        fueling.latitude !== null &&
        fueling.latitude !== undefined &&
        fueling.longitude !== null &&
        fueling.longitude !== undefined
          ? { latitude: fueling.latitude, longitude: fueling.longitude }
          : null,
    },
    tankSizeGallons,
    breadcrumbs: data.breadcrumbs,
    detectedFills: data.detectedFills,
    otherPurchases: [...others.values()].map((other) => ({
      id: other.id,
      fueledAtMs: Date.parse(other.fueledAt),
      gallons: other.gallons ?? 0,
    })),
  };
  return { ...verifyPurchase(input), checkedAt: formatTimestamp(checkedAtMs), rechecked };
}

export interface PurchaseRecheckDeps {
  positions: Pick<VehiclePositionStore, 'historySince'>;
  fuelings: Pick<FuelingStore, 'get' | 'ofVehicleBetween'>;
}

/**
 * The pending purchases a worker cycle found due (verification-recheck.ts), re-checked once on the
 * vehicle's data now in: each still `unverified` and not re-checked gets its new verdict (marked
 * re-checked whatever it is), and a `flagged` one its `fueling.flagged`. The cycle's own detections
 * count as detected fills (they are recorded after its commit). Nothing is written here: the cycle
 * commits the verdicts and events in its outbox.
 */
export async function recheckPurchases(
  deps: PurchaseRecheckDeps,
  fleetId: string,
  vehicle: Pick<Vehicle, 'id' | 'tankSizeGallons'>,
  due: readonly PendingVerification[],
  cycleDetections: readonly Fueling[],
  positions: RecentPositions,
  checkedAtMs: number,
): Promise<{ verifications: RecheckedPurchase[]; events: OutboxEvent[] }> {
  const verifications: RecheckedPurchase[] = [];
  const events: OutboxEvent[] = [];
  for (const entry of due) {
    const fueling = await deps.fuelings.get(fleetId, { id: entry.fuelingId, fueledAt: entry.fueledAt });
    const before = fueling?.verification;
    if (fueling?.source !== 'reported' || before?.status !== 'unverified' || before.rechecked) {
      continue;
    }
    const { fromMs, toMs } = verificationSpan(fueling);
    const data = await vehicleDataBetween(deps, fleetId, vehicle.id, fromMs, toMs, positions);
    for (const detection of cycleDetections) {
      const atMs = Date.parse(detection.fueledAt);
      if (atMs < fromMs || atMs > toMs || data.detectedFills.some((fill) => fill.id === detection.id))
        continue;
      data.detectedFills.push({ id: detection.id, fueledAtMs: atMs, gallons: detection.gallons });
    }
    const verification = purchaseVerdict(fueling, vehicle.tankSizeGallons, data, checkedAtMs, true);
    verifications.push({ fueling: { id: fueling.id, fueledAt: fueling.fueledAt }, verification });
    if (verification.status === 'flagged') events.push(fuelingFlaggedEvent(fueling, verification));
  }
  return { verifications, events };
}
