import { fuelingFlaggedEvent } from '#shared/events/domain/event-payloads.ts';
import { inFuelProgram } from '#shared/fuel-programs/domain/program.ts';
import type { FuelProgramSource } from '#shared/fuel-programs/usecases/fuel-programs.ts';
import { treatmentFor } from '#shared/fuel-tax/domain/treatment.ts';
import { stableTimedId } from '#shared/kernel/ids.ts';
import { roundCoordinate } from '#shared/kernel/rounding.ts';
import { formatTimestamp } from '#shared/kernel/time.ts';
import { ApiError, batchTooLarge, unknownVehicleHint } from '#shared/platform/errors.ts';
import { logger } from '#shared/platform/observability.ts';
import { type ItemProblem, parseItem } from '#shared/platform/validation/batch-items.ts';
import type { Station } from '#shared/stations/domain/station.ts';
import type { CatalogProvider } from '#shared/stations/usecases/station-catalog.ts';
import type { Fueling, StoredVerification } from '#shared/tracking/domain/fueling-record.ts';
import type { RecentPositions } from '#shared/tracking/domain/positions.ts';
import type { VehiclePositionStore } from '#shared/tracking/store/vehicle-positions.ts';
import type { VehicleTrackingStore } from '#shared/tracking/store/vehicle-tracking.ts';
import type { Vehicle } from '#shared/vehicles/domain/vehicle.ts';
import type { VehicleStore } from '#shared/vehicles/store/vehicles.ts';
import { findVehicle } from '#shared/vehicles/usecases/vehicles.ts';
import {
  FUELING_BATCH_LIMITS,
  type FuelingItem,
  fuelingItemSchema,
  MAX_FUELING_AGE_DAYS,
  MAX_FUELING_CLOCK_SKEW_MS,
} from '../api/schemas.ts';
import type { FuelingListFilter, FuelingStore } from '../store/fuelings.ts';
import { type FillBasisDeps, withPriceBasis } from './fill-basis.ts';
import { FillContention, type FuelingRecordDeps, recordFill } from './fueling-records.ts';
import {
  purchaseVerdict,
  type VehicleData,
  type VehicleDataDeps,
  vehicleDataBetween,
  verificationSpan,
} from './purchase-verification.ts';

export interface RecordFuelingsDeps extends FuelingRecordDeps, FillBasisDeps {
  vehicles: Pick<VehicleStore, 'get' | 'idForExternalRef'>;
  catalog: CatalogProvider;
  /** Each purchase is checked against the vehicle's breadcrumbs (its position item read once)… */
  positions: VehicleDataDeps['positions'] & Pick<VehiclePositionStore, 'recent'>;
  /** …and an `unverified` one waits on the vehicle's tracking item for late breadcrumbs. */
  tracking: Pick<VehicleTrackingStore, 'addPendingVerification'>;
  /** Whether the fleet's card program accepts the station, as the program stands when recorded. */
  fuelPrograms: FuelProgramSource;
  now: () => number;
}

/** A reported fill with no station id is placed at the catalog station within this distance. */
export const STATION_FROM_POSITION_MILES = 0.25;

/** Vehicles recorded at once; one vehicle's fills one after another (a merge sees the one before). */
const VEHICLE_CONCURRENCY = 8;

export type FuelingItemResult =
  | { index: number; status: 'accepted' | 'duplicate'; id: string }
  | ({ index: number; status: 'rejected' } & ItemProblem);

/** An item whose records kept changing under it (other writers of its vehicle and day). */
const CONTENDED_PROBLEM: ItemProblem = {
  code: 'storage_unavailable',
  hint: 'not recorded: its records kept changing under concurrent writes; resend this item with backoff (a fill re-sent is answered duplicate once recorded)',
};

/** An item whose vehicle's data (breadcrumbs, detected fills) could not be read to check it. */
const UNCHECKED_PROBLEM: ItemProblem = {
  code: 'storage_unavailable',
  hint: "not recorded: the vehicle's breadcrumbs and fills to check it against could not be read; resend this item with backoff (a fill re-sent is answered duplicate once recorded)",
};

const rejected = (index: number, problem: ItemProblem): FuelingItemResult => ({
  index,
  status: 'rejected',
  ...problem,
});

/**
 * POST /v1/fuelings: each item is judged on its own (validated like a request, its vehicle
 * resolved by id or external_ref, refused when unknown or deactivated), then recorded through the
 * one path every fill takes (recordFill: merge, match, dedupe, report counters). A card reference
 * already recorded in the fleet is `duplicate` with the existing id, in this batch or any other.
 */
export async function recordFuelings(deps: RecordFuelingsDeps, fleetId: string, items: readonly unknown[]) {
  if (items.length > FUELING_BATCH_LIMITS.maxItems) {
    throw batchTooLarge(items.length, FUELING_BATCH_LIMITS.maxItems, 'fuelings');
  }
  const nowMs = deps.now();
  const catalog = await deps.catalog.current();
  // The fleet's treatment and card program, read once for the batch (one item holds both); a
  // vehicle's override wins.
  const fleet = deps.fleets ? await deps.fleets.get(fleetId) : null;
  const program = fleet?.fuelProgram ?? (await deps.fuelPrograms.get(fleetId));
  const vehicles = new Map<string, Promise<Vehicle | null>>();
  const lookup = (item: FuelingItem) => {
    const key = item.vehicle_id ? `id:${item.vehicle_id}` : `ref:${item.external_ref}`;
    let found = vehicles.get(key);
    if (!found) {
      found = (async () => {
        const id =
          item.vehicle_id ?? (await deps.vehicles.idForExternalRef(fleetId, item.external_ref as string));
        return id ? deps.vehicles.get(fleetId, id) : null;
      })();
      vehicles.set(key, found);
    }
    return found;
  };

  const results: FuelingItemResult[] = [];
  const fillsByVehicle = new Map<string, { index: number; fill: Fueling; vehicle: Vehicle }[]>();
  for (const [index, raw] of items.entries()) {
    const parsed = parseItem(fuelingItemSchema, raw);
    if (!parsed.ok) {
      results[index] = rejected(index, parsed.problem);
      continue;
    }
    const item = parsed.value;
    const fueledAtMs = Date.parse(item.fueled_at);
    const timeProblem = fueledAtProblem(fueledAtMs, nowMs);
    if (timeProblem) {
      results[index] = rejected(index, timeProblem);
      continue;
    }
    const station = item.station_id ? catalog.byId(item.station_id) : null;
    if (item.station_id && !station) {
      results[index] = rejected(index, {
        code: 'validation_failed',
        hint: `fix station_id: no station ${item.station_id} in the catalog (GET /v1/stations lists them), or send latitude and longitude instead`,
        errors: [{ field: 'station_id', message: 'is not a station of the catalog' }],
      });
      continue;
    }
    const vehicle = await lookup(item);
    if (!vehicle) {
      results[index] = rejected(index, {
        code: 'unknown_vehicle',
        hint: unknownVehicleHint(item.vehicle_id ?? `with external_ref ${item.external_ref}`),
      });
      continue;
    }
    if (vehicle.status === 'inactive') {
      results[index] = rejected(index, {
        code: 'vehicle_inactive',
        hint: `vehicle ${vehicle.id} is deactivated; reactivate it with POST /v1/vehicles/${vehicle.id}/reactivate`,
      });
      continue;
    }
    const placed =
      station ??
      (item.latitude !== undefined && item.longitude !== undefined
        ? (catalog.nearby(item.latitude, item.longitude, STATION_FROM_POSITION_MILES, 1)[0]?.station ?? null)
        : null);
    const fill = await withPriceBasis(
      deps,
      {
        ...reportedFueling(item, vehicle, placed, fueledAtMs, nowMs),
        inFuelProgram: placed ? inFuelProgram(program, placed.chain) : null,
      },
      treatmentFor(fleet, vehicle),
      placed?.state ?? null,
    );
    const list = fillsByVehicle.get(vehicle.id) ?? [];
    list.push({ index, fill, vehicle });
    fillsByVehicle.set(vehicle.id, list);
  }

  const queue = [...fillsByVehicle.values()];
  const worker = async () => {
    for (let fills = queue.shift(); fills; fills = queue.shift()) {
      const checked = await withVerdicts(deps, fleetId, fills, nowMs);
      for (const { index, fill, unreadable, awaitsLateBreadcrumbs } of checked) {
        if (unreadable) {
          // Never recorded without its verdict: this item alone is answered, the batch stands.
          results[index] = rejected(index, UNCHECKED_PROBLEM);
          continue;
        }
        try {
          const outcome = await recordFill(deps, fleetId, fill);
          if (outcome.status === 'recorded') {
            await afterVerdict(deps, fleetId, outcome.fueling, awaitsLateBreadcrumbs);
          } else if (outcome.id === fill.id) {
            // The same purchase sent again: what its stored verdict asks for is done again (at
            // most once, by key), in case the first request failed between recording and doing it.
            const stored = await deps.fuelings.get(fleetId, fill);
            if (stored) await afterVerdict(deps, fleetId, stored, awaitsLateBreadcrumbs);
          }
          results[index] =
            outcome.status === 'recorded'
              ? { index, status: 'accepted', id: outcome.fueling.id }
              : { index, status: 'duplicate', id: outcome.id };
        } catch (error) {
          // The rest of the batch is committed: this item is answered on its own, never a 500.
          // Its fueling.matched and what its verdict asks for, if the fill was recorded, are done
          // again when it is re-sent (answered duplicate).
          const log = error instanceof FillContention ? logger.warn : logger.error;
          log.call(logger, 'Fueling not recorded', { fuelingId: fill.id, error });
          results[index] = rejected(index, CONTENDED_PROBLEM);
        }
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(VEHICLE_CONCURRENCY, queue.length) }, worker));

  return {
    accepted: results.filter((r) => r.status === 'accepted').length,
    rejected: results.filter((r) => r.status === 'rejected').length,
    duplicates: results.filter((r) => r.status === 'duplicate').length,
    results,
  };
}

/** Purchases of one vehicle share one read of its data while their windows overlap, up to this span. */
const MAX_SHARED_SPAN_MS = 24 * 3_600_000;

/**
 * Each purchase of one vehicle with its verdict (checked now, not re-checked yet), in the batch's
 * order (a merge sees the fill before it). Purchases whose windows overlap share one read of the
 * vehicle's data, so a batch of one truck's day costs a few reads, not one per purchase. A read
 * that fails (throttled) marks the purchases that needed it `unreadable`; the others stand.
 * `awaitsLateBreadcrumbs`: the vehicle's newest breadcrumb is not yet at the end of the purchase's
 * window, so breadcrumbs of the window may still come (a window already complete never will).
 */
async function withVerdicts<T extends { fill: Fueling; vehicle: Pick<Vehicle, 'tankSizeGallons'> }>(
  deps: RecordFuelingsDeps,
  fleetId: string,
  fills: readonly T[],
  nowMs: number,
): Promise<(T & { unreadable: boolean; awaitsLateBreadcrumbs: boolean })[]> {
  const verdicts = new Map<T, StoredVerification>();
  const unreadable = new Set<T>();
  // The position item, read once for the vehicle: its newest breadcrumb, and the ring each
  // history read would otherwise read again.
  let recent: Promise<RecentPositions | null> | undefined;
  let newestMs: number | null = null;
  const byTime = [...fills].sort((a, b) => Date.parse(a.fill.fueledAt) - Date.parse(b.fill.fueledAt));
  let group: T[] = [];
  let span = { fromMs: 0, toMs: 0 };
  const verifyGroup = async () => {
    const first = group[0];
    if (!first) return;
    let data: VehicleData;
    try {
      recent ??= deps.positions.recent(fleetId, first.fill.vehicleId);
      const positions = await recent;
      newestMs = positions?.latest.recordedAtMs ?? null;
      data = await vehicleDataBetween(
        deps,
        fleetId,
        first.fill.vehicleId,
        span.fromMs,
        span.toMs,
        positions ?? undefined,
      );
    } catch (error) {
      logger.warn('Purchases not checked: the vehicle data read failed', {
        vehicleId: first.fill.vehicleId,
        fuelingIds: group.map((entry) => entry.fill.id),
        error,
      });
      for (const entry of group) unreadable.add(entry);
      return;
    }
    for (const entry of group) {
      const alongside = fills.map((other) => other.fill);
      verdicts.set(
        entry,
        purchaseVerdict(entry.fill, entry.vehicle.tankSizeGallons, data, nowMs, false, alongside),
      );
    }
  };
  for (const entry of byTime) {
    const window = verificationSpan(entry.fill);
    if (group.length > 0 && window.fromMs <= span.toMs && window.toMs - span.fromMs <= MAX_SHARED_SPAN_MS) {
      span = { fromMs: span.fromMs, toMs: Math.max(span.toMs, window.toMs) };
      group.push(entry);
      continue;
    }
    await verifyGroup();
    span = window;
    group = [entry];
  }
  await verifyGroup();
  return fills.map((entry) => ({
    ...entry,
    fill: { ...entry.fill, verification: verdicts.get(entry) ?? null },
    unreadable: unreadable.has(entry),
    awaitsLateBreadcrumbs: newestMs === null || newestMs < verificationSpan(entry.fill).toMs,
  }));
}

/**
 * What a recorded purchase's verdict asks for: a flagged one is announced (`fueling.flagged`, once
 * by its key); an unverified one waits on the vehicle's tracking item for late breadcrumbs, unless
 * its window is complete already (the usual card feed, hours late): none of its window can come late
 * then, and a gap filled afterwards re-checks nothing.
 */
async function afterVerdict(
  deps: RecordFuelingsDeps,
  fleetId: string,
  fueling: Fueling,
  awaitsLateBreadcrumbs: boolean,
): Promise<void> {
  const verification = fueling.verification;
  if (!verification) return;
  if (verification.status === 'flagged') {
    const event = fuelingFlaggedEvent(fueling, verification);
    await deps.events.record(fleetId, event.type, event.data, { dedupeKey: event.dedupeKey });
  } else if (verification.status === 'unverified' && !verification.rechecked && awaitsLateBreadcrumbs) {
    await deps.tracking.addPendingVerification(fleetId, fueling.vehicleId, {
      fuelingId: fueling.id,
      fueledAt: fueling.fueledAt,
    });
  }
}

function fueledAtProblem(fueledAtMs: number, nowMs: number): ItemProblem | null {
  if (fueledAtMs > nowMs + MAX_FUELING_CLOCK_SKEW_MS) {
    return {
      code: 'validation_failed',
      hint: 'fix fueled_at: it is more than 5 minutes in the future; send the purchase time in UTC',
      errors: [{ field: 'fueled_at', message: 'is more than 5 minutes in the future' }],
    };
  }
  if (fueledAtMs < nowMs - MAX_FUELING_AGE_DAYS * 86_400_000) {
    return {
      code: 'validation_failed',
      hint: `fix fueled_at: it is more than ${MAX_FUELING_AGE_DAYS} days old, beyond what the savings report covers; drop it`,
      errors: [{ field: 'fueled_at', message: `is more than ${MAX_FUELING_AGE_DAYS} days old` }],
    };
  }
  return null;
}

const round3 = (value: number) => Math.round(value * 1000) / 1000;

/**
 * A reported fill's id follows from what the fill is (vehicle, time, gallons, and its card
 * reference and station when sent), so the same fill sent again — a batch re-run after its
 * idempotency key expired, or under a new key — is `duplicate`, never a second record. The
 * vehicle id is fleet-unique (the fleet's key prefixes every record besides).
 */
export function reportedFuelingId(
  item: Pick<FuelingItem, 'gallons' | 'card_transaction_ref' | 'station_id'>,
  vehicleId: string,
  fueledAtMs: number,
): string {
  const seed = [vehicleId, fueledAtMs, item.gallons, item.card_transaction_ref ?? '', item.station_id ?? ''];
  return stableTimedId('fueling', fueledAtMs, `reported:${seed.join('|')}`);
}

/** A card record as the fleet's record keeps it (before it is linked or matched). */
export function reportedFueling(
  item: FuelingItem,
  vehicle: Pick<Vehicle, 'id' | 'externalRef'>,
  station: Station | null,
  fueledAtMs: number,
  nowMs: number,
): Fueling {
  const price = item.price_usd_per_gallon ?? null;
  const discount = price === null ? null : (item.discount_usd_per_gallon ?? 0);
  const netPrice =
    price !== null
      ? round3(price - (discount ?? 0))
      : item.total_usd !== undefined
        ? round3(item.total_usd / item.gallons)
        : null;
  return {
    id: reportedFuelingId(item, vehicle.id, fueledAtMs),
    vehicleId: vehicle.id,
    externalRef: vehicle.externalRef,
    source: 'reported',
    gallons: item.gallons,
    fueledAt: formatTimestamp(fueledAtMs),
    latitude: item.latitude === undefined ? null : roundCoordinate(item.latitude),
    longitude: item.longitude === undefined ? null : roundCoordinate(item.longitude),
    fuelLevelBeforePercent: null,
    fuelLevelAfterPercent: null,
    guidanceId: null,
    stopId: null,
    stationId: station?.id ?? null,
    station: station
      ? {
          id: station.id,
          name: station.name,
          chain: station.chain,
          latitude: station.latitude,
          longitude: station.longitude,
          address: station.address,
        }
      : null,
    price,
    discount,
    netPrice,
    totalUsd: item.total_usd ?? null,
    odometerMiles: item.odometer_miles ?? null,
    cardTransactionRef: item.card_transaction_ref ?? null,
    merchantName: item.merchant_name ?? null,
    tripId: null,
    tripStopId: null,
    recommendedNetPrice: null,
    linkedFuelingId: null,
    createdAt: formatTimestamp(nowMs),
  };
}

export interface ListFuelingsDeps {
  vehicles: Pick<VehicleStore, 'get' | 'idForExternalRef'>;
  fuelings: Pick<FuelingStore, 'list'>;
}

/**
 * GET /v1/fuelings, newest first. A vehicle outside the fleet (or unknown) is 404, like every
 * vehicle path: its fuelings are never read.
 */
export async function listFuelings(
  deps: ListFuelingsDeps,
  fleetId: string,
  query: {
    vehicle_id?: string | undefined;
    from?: string | undefined;
    to?: string | undefined;
    source?: 'reported' | 'detected' | undefined;
    cursor?: string | undefined;
    limit: number;
  },
) {
  const filter: FuelingListFilter = { source: query.source };
  if (query.from !== undefined) filter.from = formatTimestamp(Date.parse(query.from));
  if (query.to !== undefined) filter.to = formatTimestamp(Date.parse(query.to));
  if (filter.from && filter.to && filter.to < filter.from) {
    throw new ApiError('validation_failed', 'The query has `to` before `from`.', {
      hint: 'fix to: it must not be before from',
      extensions: { errors: [{ field: 'to', message: 'must not be before from' }] },
    });
  }
  if (query.vehicle_id !== undefined) {
    filter.vehicleId = (await findVehicle(deps, fleetId, query.vehicle_id)).id;
  }
  return deps.fuelings.list(fleetId, filter, query.limit, query.cursor);
}
