/**
 * DynamoDB write units per breadcrumb at a one-minute cadence, for one truck with an active guidance
 * session: each breadcrumb goes through `ingestLocations` (what POST /v1/locations runs) and then
 * `processVehicleUpdate` (the guidance worker's cycle), wired by the composition root (shared/wiring)
 * against DynamoDB Local. A middleware on the low-level client asks every call for ReturnConsumedCapacity
 * (INDEXES, so GSI writes count too) and sums what DynamoDB Local reports for single-item writes
 * and reads; transactions (the event recorder's) are counted from their items' sizes, because
 * DynamoDB Local under-reports them (see `transactionUnits`).
 * Run alone with `npx tsx bench/write-units.ts`; the suite runner imports `benchWriteUnits`.
 */
import { pathToFileURL } from 'node:url';
import type { ConsumedCapacity } from '@aws-sdk/client-dynamodb';
import { startDynamoDbLocal } from '../local/dynamodb-local.ts';
import { ensureTable } from '../local/table-setup.ts';
import { COMPANY_SCOPES } from '../shared/domain/access.ts';
import type { Principal } from '../shared/domain/api-keys.ts';
import type { Vehicle } from '../shared/domain/vehicle.ts';
import { computeEmbeddedRoute } from '../shared/geo/embedded-router.ts';
import { newId } from '../shared/platform/ids.ts';
import { formatTimestamp } from '../shared/platform/time.ts';
import { createEventRecorder } from '../shared/store/events.ts';
import { startGuidance } from '../shared/usecases/guidance.ts';
import { ingestLocations } from '../shared/usecases/locations.ts';
import { processVehicleUpdate } from '../shared/usecases/vehicle-updates.ts';
import { createGuidancePlanningDeps } from '../shared/wiring/guidance-planning.ts';
import { ingestDeps } from '../shared/wiring/locations.ts';
import { stationSources } from '../shared/wiring/stations.ts';
import { testInfrastructure } from '../test/support/infrastructure.ts';
import { DALLAS, DENVER, DISCOUNTS, PERCENT_PER_MILE, pointAlong, TRUCK } from './trip.ts';

export interface WriteUnitsBench {
  /** Write capacity units (table and GSI) per breadcrumb, ingest and worker together. */
  dynamodb_write_units_per_breadcrumb: number;
  /** The same, by the item written. */
  dynamodb_write_units_latest_position: number;
  dynamodb_write_units_history_bucket: number;
  dynamodb_write_units_tracking_item: number;
  dynamodb_write_units_events: number;
  /** Anything else: the cached route, fuelings, archived sessions. */
  dynamodb_write_units_other: number;
  /** Of the total, what gsi1 costs (the tracking item's online index, the events' id index). */
  dynamodb_write_units_gsi: number;
  /** Read capacity units per breadcrumb (consistent reads count 1 per 4 KB, eventual 0.5). */
  dynamodb_read_units_per_breadcrumb: number;
  dynamodb_breadcrumbs: number;
}

type Category = 'latest_position' | 'history_bucket' | 'tracking_item' | 'events' | 'other';

const TABLE = 'bench-write-units';
const FLEET_ID = newId('fleet');
const HOUR_MS = 3_600_000;
const MINUTE_MS = 60_000;
/** Untimed breadcrumbs first (guidance starts after the first), so the hourly buckets are in steady state. */
const WARM_UP_BREADCRUMBS = 30;
/** Timed: minutes :30 to :29 of the next hour, so the 60 appends see every bucket size from 1 to 60 points. */
const TIMED_BREADCRUMBS = 60;
const START_FUEL_PERCENT = 90;

/** Which item a write is for, by its sort key (see the key functions in shared/store). */
function categoryOf(sortKey: string): Category {
  if (sortKey.startsWith('VEHPOS#')) return 'latest_position';
  if (sortKey.startsWith('VEHHIST#')) return 'history_bucket';
  if (sortKey.startsWith('VEHTRACK#')) return 'tracking_item';
  if (sortKey.startsWith('EVT')) return 'events';
  return 'other';
}

/** `sk` of a Put's Item or an Update's / Delete's Key, marshalled or not. */
function sortKeyOf(request: Record<string, unknown> | undefined): string {
  const item = (request?.Item ?? request?.Key) as Record<string, unknown> | undefined;
  const sk = item?.sk as string | { S?: string } | undefined;
  return typeof sk === 'string' ? sk : (sk?.S ?? '');
}

type TransactItem = Record<
  'Put' | 'Update' | 'Delete' | 'ConditionCheck',
  Record<string, unknown> | undefined
>;

function categoryOfRequest(input: Record<string, unknown>): Category {
  const transactItems = input.TransactItems as TransactItem[] | undefined;
  if (!transactItems) return categoryOf(sortKeyOf(input));
  const categories = new Set(
    transactItems.map((entry) => categoryOf(sortKeyOf(entry.Put ?? entry.Update ?? entry.Delete))),
  );
  return categories.size === 1 ? ([...categories][0] as Category) : 'other';
}

/**
 * DynamoDB's size of an unmarshalled value (the DocumentClient's input): strings by UTF-8 bytes,
 * numbers about one byte per two significant digits plus one, lists and maps 3 bytes plus a byte
 * per element (and each map key's bytes).
 */
function sizeOf(value: unknown): number {
  if (typeof value === 'string') return Buffer.byteLength(value);
  if (typeof value === 'number') {
    const digits = String(Math.abs(value))
      .replace(/e.*$/, '')
      .replace('.', '')
      .replace(/^0+|0+$/g, '');
    return Math.ceil(Math.max(1, digits.length) / 2) + 1;
  }
  if (Array.isArray(value)) return 3 + value.reduce((sum: number, element) => sum + 1 + sizeOf(element), 0);
  if (value && typeof value === 'object') return 3 + itemSize(value as Record<string, unknown>);
  return 1;
}

const itemSize = (item: Record<string, unknown>) =>
  Object.entries(item).reduce((sum, [name, value]) => sum + Buffer.byteLength(name) + 1 + sizeOf(value), 0);

/**
 * A transaction's write units from its items, as DynamoDB bills them: 2 per KB of each item, each
 * rounded up on its own, plus 1 per KB for a new gsi1 entry. DynamoDB Local rounds the summed size
 * of the whole transaction instead (3 small puts: it reports 2, DynamoDB bills 6). Only Puts occur on
 * this path; any other action counts as one KB.
 */
function transactionUnits(items: readonly TransactItem[]): { table: number; gsi: number } {
  let table = 0;
  let gsi = 0;
  for (const { Put } of items) {
    const item = Put?.Item as Record<string, unknown> | undefined;
    const kilobytes = item ? Math.ceil(itemSize(item) / 1024) : 1;
    table += 2 * kilobytes;
    if (item?.gsi1pk !== undefined) gsi += kilobytes;
  }
  return { table, gsi };
}

export async function benchWriteUnits(): Promise<WriteUnitsBench> {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  const db = await startDynamoDbLocal();
  // Minute 0 is hh:00 some hours ago (breadcrumbs must not be in the future of the clock below).
  const startMs = Math.floor(Date.now() / HOUR_MS) * HOUR_MS - 3 * HOUR_MS;
  let nowMs = startMs;
  const now = () => nowMs;
  const infra = testInfrastructure({ tableName: TABLE, clock: { now }, endpoint: db.endpoint });
  const { client } = infra;
  try {
    let counting = false;
    const writes: Record<Category, number> = {
      latest_position: 0,
      history_bucket: 0,
      tracking_item: 0,
      events: 0,
      other: 0,
    };
    let gsiWrites = 0;
    let reads = 0;
    let failedCalls = 0;
    infra.dynamo.middlewareStack.add(
      (next, context) => async (args) => {
        const input = args.input as Record<string, unknown>;
        input.ReturnConsumedCapacity = 'INDEXES';
        let result: Awaited<ReturnType<typeof next>>;
        try {
          result = await next(args);
        } catch (error) {
          // DynamoDB bills a failed conditional write too; none is expected on this one-writer path.
          if (counting) failedCalls += 1;
          throw error;
        }
        if (!counting) return result;
        const reported = [
          (result.output as { ConsumedCapacity?: ConsumedCapacity | ConsumedCapacity[] }).ConsumedCapacity ??
            [],
        ].flat();
        const transactItems = input.TransactItems as TransactItem[] | undefined;
        if (transactItems) {
          const units = transactionUnits(transactItems);
          writes[categoryOfRequest(input)] += units.table + units.gsi;
          gsiWrites += units.gsi;
        } else if (/^(Put|Update|Delete|BatchWrite)/.test(context.commandName ?? '')) {
          if (reported.length === 0) {
            throw new Error(`DynamoDB Local reported no ConsumedCapacity for ${context.commandName}`);
          }
          for (const capacity of reported) {
            writes[categoryOfRequest(input)] += capacity.CapacityUnits ?? 0;
            for (const index of Object.values(capacity.GlobalSecondaryIndexes ?? {})) {
              gsiWrites += index.CapacityUnits ?? 0;
            }
          }
        } else {
          for (const capacity of reported) reads += capacity.CapacityUnits ?? 0;
        }
        return result;
      },
      { step: 'initialize', name: 'benchConsumedCapacity' },
    );

    await ensureTable(client, TABLE);
    // The composition root's guidance wiring. No webhook endpoints, so the fan-out would write
    // nothing (it would only read the endpoint list): it is left out.
    const deps = createGuidancePlanningDeps(infra, {
      events: createEventRecorder(client, TABLE, 'prod', now),
    });
    const { vehicles } = deps;
    const { catalog, discounts } = stationSources(infra);
    // The synthetic catalog, priced as of minute 0.
    await catalog.current();
    await discounts.put(FLEET_ID, DISCOUNTS);
    const at = formatTimestamp(startMs);
    const vehicle: Vehicle = {
      id: newId('vehicle', startMs),
      fleetId: FLEET_ID,
      externalRef: 'BENCH-WCU',
      linkedExternalRefs: [],
      name: null,
      vin: null,
      ...TRUCK,
      licensePlate: null,
      status: 'active',
      createdAt: at,
      updatedAt: at,
      version: 1,
    };
    await vehicles.create(vehicle);

    const route = computeEmbeddedRoute({ origin: DALLAS, destination: DENVER });
    /** One breadcrumb, received 5 s after it was recorded, then the worker's cycle it triggers. */
    const report = async (minute: number) => {
      const recordedAtMs = startMs + minute * MINUTE_MS;
      nowMs = recordedAtMs + 5_000;
      const response = await ingestLocations(ingestDeps(infra), FLEET_ID, [
        {
          vehicle_id: vehicle.id,
          ...pointAlong(route, minute),
          recorded_at: new Date(recordedAtMs).toISOString(),
          fuel_level_percent: Math.round((START_FUEL_PERCENT - minute * PERCENT_PER_MILE) * 10) / 10,
          speed_mph: 60,
        },
      ]);
      if (response.accepted !== 1) throw new Error(`breadcrumb ${minute} was rejected`);
      await processVehicleUpdate(deps, { fleetId: FLEET_ID, vehicleId: vehicle.id });
    };

    await report(0);
    const principal: Principal = {
      keyId: 'key_BENCH',
      keyName: 'bench',
      ownerType: 'company',
      accountId: `cmp_of_${FLEET_ID}`,
      partnerId: null,
      ownFleetId: FLEET_ID,
      mode: 'live',
      scopes: COMPANY_SCOPES,
      planName: 'local-dev',
      keyCreatedAt: '2026-11-01T00:00:00.000000Z',
    };
    // POST /v1/vehicles/{id}/guidance's use case: it plans at once and caches the route.
    await startGuidance(deps, principal, FLEET_ID, vehicle.id, {
      destination: DENVER,
      min_arrival_fuel_percent: 20,
    });
    for (let minute = 1; minute < WARM_UP_BREADCRUMBS; minute++) await report(minute);

    counting = true;
    for (let minute = WARM_UP_BREADCRUMBS; minute < WARM_UP_BREADCRUMBS + TIMED_BREADCRUMBS; minute++) {
      await report(minute);
    }
    counting = false;

    if (failedCalls > 0)
      console.warn(`bench: ${failedCalls} DynamoDB calls failed during the write-unit run`);
    const tracking = await deps.tracking.get(FLEET_ID, vehicle.id);
    if (tracking.session?.status !== 'active') {
      console.warn(
        `bench: the guidance session ended (${tracking.session?.endReason}) during the write-unit run`,
      );
    }
    const per = (units: number) => Math.round((units / TIMED_BREADCRUMBS) * 100) / 100;
    const total = Object.values(writes).reduce((sum, units) => sum + units, 0);
    return {
      dynamodb_write_units_per_breadcrumb: per(total),
      dynamodb_write_units_latest_position: per(writes.latest_position),
      dynamodb_write_units_history_bucket: per(writes.history_bucket),
      dynamodb_write_units_tracking_item: per(writes.tracking_item),
      dynamodb_write_units_events: per(writes.events),
      dynamodb_write_units_other: per(writes.other),
      dynamodb_write_units_gsi: per(gsiWrites),
      dynamodb_read_units_per_breadcrumb: per(reads),
      dynamodb_breadcrumbs: TIMED_BREADCRUMBS,
    };
  } finally {
    client.destroy();
    await db.stop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) console.table(await benchWriteUnits());
