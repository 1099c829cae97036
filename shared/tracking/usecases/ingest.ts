import { tallyIngest } from '#shared/integration-health/domain/ingest-tally.ts';
import type { IntegrationCounterStore } from '#shared/integration-health/store/integration-counters.ts';
import { concurrencyLimit } from '#shared/platform/concurrency.ts';
import { ApiError, batchTooLarge, unknownVehicleHint } from '#shared/platform/errors.ts';
import { logger } from '#shared/platform/observability.ts';
import type { MessageQueue } from '#shared/platform/ports/queue.ts';
import {
  fieldProblem,
  type ItemProblem,
  itemProblem,
  parseItem,
} from '#shared/platform/validation/batch-items.ts';
import type { Vehicle } from '#shared/vehicles/domain/vehicle.ts';
import type { VehicleReader } from '#shared/vehicles/store/vehicles.ts';
import { findVehicle } from '#shared/vehicles/usecases/vehicles.ts';
import {
  type Breadcrumb,
  breadcrumbSchema,
  LOCATION_BATCH_LIMITS,
  MAX_CLOCK_SKEW_MS,
} from '../api/schemas.ts';
import type { VehicleUpdateMessage } from '../domain/messages.ts';
import type { LatestPosition, PositionFix } from '../domain/positions.ts';
import { kmhFromMph } from '../domain/speed.ts';
import {
  MAX_HISTORY_ITEMS_PER_HOUR,
  MAX_HISTORY_POINTS_PER_ITEM,
  POSITION_HISTORY_RETENTION_DAYS,
  type PrefetchedPosition,
  type RecordOutcome,
  type VehiclePositionStore,
} from '../store/vehicle-positions.ts';

/**
 * The oldest `recorded_at` accepted: history keeps breadcrumbs this long, so an older one would be
 * stored only to expire at once.
 */
export const MAX_BREADCRUMB_AGE_MS = POSITION_HISTORY_RETENTION_DAYS * 86_400_000;

/** What a rejected item says when storage failed for it (the registry's hint, for these items). */
const STORAGE_PROBLEM = itemProblem(
  new ApiError('storage_unavailable', 'Not stored.', {
    hint: 'not stored: storage is temporarily unavailable; retry these items with backoff (resending the batch is safe: a breadcrumb is stored once)',
  }),
);

/** Why a breadcrumb beyond the last item its hour may have is refused: a retry cannot store it. */
const hourFullProblem = (fix: PositionFix) =>
  fieldProblem(
    'recorded_at',
    `falls in an hour (${new Date(fix.recordedAtMs).toISOString().slice(0, 13)}:00Z UTC) that already holds ${(MAX_HISTORY_ITEMS_PER_HOUR * MAX_HISTORY_POINTS_PER_ITEM).toLocaleString('en-US')} breadcrumbs for this vehicle, the most history keeps`,
    "not stored; do not resend it: check the device's reporting rate and clock",
  );

/** Storage calls one request has in flight at most (the SDK keeps 50 sockets per client). */
export const INGEST_STORAGE_CONCURRENCY = 32;

const CLOCK_HINT = 'check the device clock (UTC); fix recorded_at and resend this item';

export interface IngestDeps {
  vehicles: Pick<VehicleReader, 'getMany' | 'idForExternalRef'>;
  positions: Pick<VehiclePositionStore, 'prefetch' | 'record'>;
  /** The guidance worker's queue: one message per vehicle the batch touched. */
  vehicleUpdates: MessageQueue<VehicleUpdateMessage>;
  /** The health scorecard's hourly counters: one update per request (never per breadcrumb). */
  healthCounters: Pick<IntegrationCounterStore, 'recordIngest'>;
  now: () => number;
  /**
   * The clock the health counters are written at: the wall clock, as the scorecard reads its last
   * 24 hours by it. Absent: `now`. Only the sandbox simulator sets it, as its `now` runs ahead.
   */
  countersNow?: () => number;
}

/** A rejected item carries what a 422 (or other problem) for it alone would: code, hint, errors. */
export type ItemResult =
  | { index: number; status: 'accepted' }
  | ({ index: number; status: 'rejected' } & ItemProblem);

/**
 * POST /v1/locations: every item is judged on its own (docs/validation.md: a bad row is rejected with
 * a code and a hint, the rest are accepted). Accepted breadcrumbs are stored once each, however
 * often sent, and the newest one stored per vehicle becomes its latest position if it is newer than
 * the stored one (one write per vehicle: `positions.record`). Then each vehicle stored is queued for
 * the guidance worker. Breadcrumbs storage failed for are rejected `storage_unavailable`
 * (retryable), and with them the vehicle's breadcrumbs newer than the oldest failed one (the latest
 * position stays before it until the client resends); the rest stay accepted. Breadcrumbs beyond the most an hour
 * of history holds are rejected `validation_failed` (not retryable). Only when nothing could be
 * stored for a transient reason does the whole request fail (503). Returns the per-item results.
 */
export async function ingestLocations(deps: IngestDeps, fleetId: string, items: readonly unknown[]) {
  // The body's size was checked before parsing; the count can only be checked once it is a list.
  if (items.length > LOCATION_BATCH_LIMITS.maxItems) {
    throw batchTooLarge(items.length, LOCATION_BATCH_LIMITS.maxItems, 'items');
  }
  const nowMs = deps.now();
  // One request may touch 500 vehicles: its storage calls go out a bounded number at a time.
  const limited = concurrencyLimit(INGEST_STORAGE_CONCURRENCY);

  // By index: the items that pass the first checks are judged again once their vehicles are known.
  const results: ItemResult[] = new Array(items.length);
  const fixesByVehicle = new Map<string, PositionFix[]>();
  const indexesOf = new Map<PositionFix, number>();
  const checked: { index: number; crumb: Breadcrumb; recordedAtMs: number }[] = [];
  for (const [index, raw] of items.entries()) {
    const parsed = parseItem(breadcrumbSchema, raw);
    if (!parsed.ok) {
      results[index] = { index, status: 'rejected', ...parsed.problem };
      continue;
    }
    const crumb = parsed.value;
    const recordedAtMs = Date.parse(crumb.recorded_at);
    if (recordedAtMs > nowMs + MAX_CLOCK_SKEW_MS) {
      const problem = fieldProblem('recorded_at', 'is more than 5 minutes in the future', CLOCK_HINT);
      results[index] = { index, status: 'rejected', ...problem };
      continue;
    }
    if (recordedAtMs < nowMs - MAX_BREADCRUMB_AGE_MS) {
      const problem = fieldProblem(
        'recorded_at',
        `is more than ${POSITION_HISTORY_RETENTION_DAYS} days old, beyond the position history kept`,
        'drop this item, or check the device clock (UTC)',
      );
      results[index] = { index, status: 'rejected', ...problem };
      continue;
    }
    checked.push({ index, crumb, recordedAtMs });
  }
  const vehicleOf = await lookUpVehicles(
    deps,
    fleetId,
    checked.map(({ crumb }) => crumb),
    limited,
  );
  const acceptedVehicles = new Map<string, Vehicle>();
  for (const { index, crumb, recordedAtMs } of checked) {
    const vehicle = vehicleOf(crumb);
    if (!vehicle) {
      const which = crumb.vehicle_id ?? `with external_ref ${crumb.external_ref}`;
      const problem = itemProblem(
        new ApiError('unknown_vehicle', `No vehicle ${which} in this fleet.`, {
          hint: unknownVehicleHint(which),
        }),
      );
      results[index] = { index, status: 'rejected', ...problem };
      continue;
    }
    if (vehicle.status === 'inactive') {
      const problem = itemProblem(
        new ApiError('vehicle_inactive', `Vehicle ${vehicle.id} is deactivated.`, {
          hint: `vehicle ${vehicle.id} is deactivated; reactivate it with POST /v1/vehicles/${vehicle.id}/reactivate`,
        }),
      );
      results[index] = { index, status: 'rejected', ...problem };
      continue;
    }
    const fixes = fixesByVehicle.get(vehicle.id) ?? [];
    fixes.push({
      latitude: crumb.latitude,
      longitude: crumb.longitude,
      recordedAtMs,
      receivedAtMs: nowMs,
      fuelLevelPercent: crumb.fuel_level_percent ?? null,
      speedKmh: crumb.speed_mph === undefined ? null : kmhFromMph(crumb.speed_mph),
      headingDegrees: crumb.heading_degrees ?? null,
      driverRef: crumb.driver_ref ?? null,
      address: crumb.address ?? null,
    });
    fixesByVehicle.set(vehicle.id, fixes);
    acceptedVehicles.set(vehicle.id, vehicle);
    indexesOf.set(fixes.at(-1) as PositionFix, index);
    results[index] = { index, status: 'accepted' };
  }

  // Every vehicle's position item in one batch read (100 a call) rather than one read each; a
  // failed batch read leaves each vehicle to read its own.
  const prefetched = await deps.positions
    .prefetch(fleetId, [...fixesByVehicle.keys()])
    .catch((error: unknown) => {
      logger.warn('Position items not prefetched', { fleetId, error });
      return new Map<string, PrefetchedPosition>();
    });
  const stored = await Promise.all(
    [...fixesByVehicle].map(async ([vehicleId, fixes]) => {
      let outcome: RecordOutcome;
      try {
        outcome = await limited(() =>
          deps.positions.record(fleetId, vehicleId, fixes, prefetched.get(vehicleId)),
        );
      } catch (error) {
        outcome = { retry: [...fixes], hourFull: [], cause: error };
      }
      const { retry, hourFull } = outcome;
      if (retry.length + hourFull.length > 0) {
        logger.warn('Breadcrumbs not stored', {
          vehicleId,
          count: retry.length + hourFull.length,
          error: outcome.cause,
        });
      }
      const accepted = fixes.length - retry.length - hourFull.length;
      return {
        vehicleId,
        retry,
        hourFull,
        storedAny: accepted > 0,
        written: outcome.written,
        previousLatestAtMs: outcome.previousLatestAtMs,
      };
    }),
  );

  for (const { retry, hourFull } of stored) {
    for (const fix of retry) {
      const index = indexesOf.get(fix) as number;
      results[index] = { index, status: 'rejected', ...STORAGE_PROBLEM };
    }
    for (const fix of hourFull) {
      const index = indexesOf.get(fix) as number;
      results[index] = { index, status: 'rejected', ...hourFullProblem(fix) };
    }
  }
  const storedVehicles = stored.filter((v) => v.storedAny);
  // A 503 only for a transient failure: breadcrumbs beyond a full hour are answered item by item.
  if (storedVehicles.length === 0 && stored.some((v) => v.retry.length > 0)) {
    throw new ApiError(
      'storage_unavailable',
      'None of the accepted breadcrumbs could be stored right now; resend the batch.',
    );
  }

  // After the writes: the guidance worker recomputes from what is stored, starting from the
  // vehicle and the position item as this request read and wrote them (no read of its own).
  await deps.vehicleUpdates.send(
    storedVehicles.map(({ vehicleId, written }) => ({
      fleetId,
      vehicleId,
      ...(written ? { positionVersion: written.version, positions: written } : {}),
      vehicle: acceptedVehicles.get(vehicleId),
    })),
  );

  const accepted = results.filter((r) => r.status === 'accepted').length;
  const countedAtMs = deps.countersNow?.() ?? nowMs;
  await countForHealth(deps, fleetId, countedAtMs, fixesByVehicle, stored, results.length - accepted);
  return { accepted, rejected: results.length - accepted, results };
}

/**
 * The vehicles the breadcrumbs name, each distinct one read once: external refs resolved first (all
 * at once, a bounded number in flight), then every id in one batch read per 100 ids instead of a
 * read per vehicle. Any failed read fails the request (nothing is stored yet, so a resend is safe).
 */
async function lookUpVehicles(
  deps: Pick<IngestDeps, 'vehicles'>,
  fleetId: string,
  crumbs: readonly Breadcrumb[],
  limited: <T>(task: () => Promise<T>) => Promise<T>,
): Promise<(crumb: Breadcrumb) => Vehicle | null> {
  const refs = [...new Set(crumbs.flatMap((c) => (c.vehicle_id ? [] : [c.external_ref as string])))];
  const idOfRef = new Map(
    await Promise.all(
      refs.map(
        async (ref) => [ref, await limited(() => deps.vehicles.idForExternalRef(fleetId, ref))] as const,
      ),
    ),
  );
  const ids = crumbs.flatMap((c) => {
    const id = c.vehicle_id ?? idOfRef.get(c.external_ref as string);
    return id ? [id] : [];
  });
  const vehicles = ids.length === 0 ? new Map<string, Vehicle>() : await deps.vehicles.getMany(fleetId, ids);
  return (crumb) => {
    const id = crumb.vehicle_id ?? idOfRef.get(crumb.external_ref as string);
    return (id && vehicles.get(id)) || null;
  };
}

/**
 * The request's one write to the fleet's hourly health counters (docs/integration-health.md). A
 * failure is logged and the request still succeeds: the breadcrumbs are stored, and a client
 * resending them for a statistic would only be counted twice.
 */
async function countForHealth(
  deps: Pick<IngestDeps, 'healthCounters'>,
  fleetId: string,
  nowMs: number,
  fixesByVehicle: ReadonlyMap<string, readonly PositionFix[]>,
  stored: readonly {
    vehicleId: string;
    retry: readonly PositionFix[];
    hourFull: readonly PositionFix[];
    previousLatestAtMs?: number | null | undefined;
  }[],
  rejected: number,
) {
  const notStored = new Set(stored.flatMap((vehicle) => [...vehicle.retry, ...vehicle.hourFull]));
  const previousOf = new Map(stored.map((vehicle) => [vehicle.vehicleId, vehicle.previousLatestAtMs]));
  const storedByVehicle = [...fixesByVehicle].map(([vehicleId, fixes]) => ({
    fixes: fixes.filter((f) => !notStored.has(f)),
    previousLatestAtMs: previousOf.get(vehicleId),
  }));
  try {
    await deps.healthCounters.recordIngest(fleetId, nowMs, tallyIngest(storedByVehicle, rejected));
  } catch (error) {
    logger.warn('Ingest not counted for integration health', { fleetId, error });
  }
}

/** GET /v1/vehicles/{id}/location: the vehicle of the acting fleet and its latest position. */
export async function latestLocation(
  deps: { vehicles: VehicleReader; positions: Pick<VehiclePositionStore, 'latest'> },
  fleetId: string,
  ref: string,
): Promise<{ vehicle: Vehicle; position: LatestPosition }> {
  const vehicle = await findVehicle(deps, fleetId, ref);
  const position = await deps.positions.latest(fleetId, vehicle.id);
  if (!position)
    throw new ApiError('resource_not_found', `Vehicle ${vehicle.id} has not reported a position yet.`);
  return { vehicle, position };
}
