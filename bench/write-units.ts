/**
 * DynamoDB write units per breadcrumb at a one-minute cadence, for one truck with an active guidance
 * session: each breadcrumb goes through `ingestLocations` (what POST /v1/locations runs) and then
 * `processVehicleUpdate` (the guidance worker's cycle), wired by the composition root (shared/wiring)
 * against DynamoDB Local. A middleware on the low-level client asks every call for ReturnConsumedCapacity
 * (INDEXES, so GSI writes count too) and sums what DynamoDB Local reports for single-item writes
 * and reads; transactions (the event recorder's) are counted from their items' sizes, because
 * DynamoDB Local under-reports them (see `transactionUnits`), and with them the keys-only online
 * index (gsi2) by DynamoDB's rule (see `KeysOnlyIndexLedger`).
 * Run alone with `npx tsx bench/write-units.ts` (`BENCH_DETAIL=1` also prints every write by call and
 * item shape); the suite runner imports `benchWriteUnits`.
 */
import { pathToFileURL } from 'node:url';
import type { ConsumedCapacity } from '@aws-sdk/client-dynamodb';
import { startDynamoDbLocal } from '#local/dynamodb-local.ts';
import { ensureTable } from '#local/table-setup.ts';
import { eventRecorderOn } from '#shared/events/wiring/events.ts';
import { UNSET_TRUCK_PROFILE } from '#shared/fleets/domain/truck-profile.ts';
import { computeEmbeddedRoute } from '#shared/geo/embedded-router.ts';
import { startGuidance } from '#shared/guidance/usecases/guidance.ts';
import { createGuidancePlanningDeps } from '#shared/guidance/wiring/guidance-planning.ts';
import { COMPANY_SCOPES } from '#shared/kernel/access.ts';
import { newId } from '#shared/kernel/ids.ts';
import { formatTimestamp } from '#shared/kernel/time.ts';
import type { Principal } from '#shared/keys/domain/api-key.ts';
import { stationSources } from '#shared/stations/wiring/stations.ts';
import { dynamoItemBytes } from '#shared/table/item-size.ts';
import { ingestLocations } from '#shared/tracking/usecases/ingest.ts';
import { processVehicleUpdate } from '#shared/tracking/usecases/vehicle-updates.ts';
import { ingestDeps } from '#shared/tracking/wiring/tracking.ts';
import type { Vehicle } from '#shared/vehicles/domain/vehicle.ts';
import { tableStores, vehicleStore } from '#shared/wiring/table-stores.ts';
import { companyFleet, discountsOnlyProgram } from '#test/support/fleets.ts';
import { testInfrastructure } from '#test/support/infrastructure.ts';
import { DALLAS, DENVER, DISCOUNTS, PERCENT_PER_MILE, pointAlong, TRUCK } from './trip.ts';

export interface WriteUnitsBench {
  /**
   * Write capacity units (table and GSI) per breadcrumb, ingest and worker together, at a one-minute
   * cadence with one breadcrumb per vehicle per request (a request carries the whole fleet's minute).
   */
  dynamodb_write_units_per_breadcrumb: number;
  /** The same, by the item written. */
  dynamodb_write_units_latest_position: number;
  dynamodb_write_units_history_bucket: number;
  dynamodb_write_units_tracking_item: number;
  /** The online index (gsi2 keys on the latest-position item) and the sweep's visit markers. */
  dynamodb_write_units_online_index: number;
  dynamodb_write_units_health_counters: number;
  dynamodb_write_units_events: number;
  /** Anything else: the cached route, fuelings, archived sessions. */
  dynamodb_write_units_other: number;
  /** Of the total, what gsi1 costs (the online index, the events' id index). */
  dynamodb_write_units_gsi: number;
  /** Read capacity units per breadcrumb (consistent reads count 1 per 4 KB, eventual 0.5). */
  dynamodb_read_units_per_breadcrumb: number;
  /** The same reads, by the item read. */
  dynamodb_read_units_latest_position: number;
  dynamodb_read_units_history_bucket: number;
  dynamodb_read_units_tracking_item: number;
  dynamodb_read_units_vehicle: number;
  dynamodb_read_units_other: number;
  /** Write and read units per breadcrumb when a client sends 5 breadcrumbs per vehicle per request. */
  dynamodb_write_units_per_breadcrumb_5_per_request: number;
  dynamodb_read_units_per_breadcrumb_5_per_request: number;
  /**
   * The same as the first, for trucks without a guidance session (most of a fleet): the worker's
   * quiet cycles store nothing (commit-policy.ts).
   */
  dynamodb_write_units_per_breadcrumb_unguided: number;
  dynamodb_write_units_tracking_item_unguided: number;
  dynamodb_read_units_per_breadcrumb_unguided: number;
  /** Breadcrumbs counted in each scenario (vehicles × timed minutes). */
  dynamodb_breadcrumbs: number;
  dynamodb_vehicles: number;
}

type Category =
  | 'latest_position'
  | 'history_bucket'
  | 'tracking_item'
  | 'online_index'
  | 'health_counters'
  | 'vehicle'
  | 'events'
  | 'other';

const TABLE = 'bench-write-units';
const HOUR_MS = 3_600_000;
const MINUTE_MS = 60_000;
/** Every vehicle of the fleet has an active guidance session; each request carries all of them. */
const VEHICLES = 10;
/** Each vehicle starts this many road miles further along Dallas → Denver than the previous one. */
const SPACING_MILES = 12;
/** Untimed breadcrumbs first (guidance starts after the first), so every item is in steady state. */
const WARM_UP_MINUTES = 30;
/** Timed minutes: a whole hour, so hour boundaries and every flush point are crossed. */
const TIMED_MINUTES = 60;
const START_FUEL_PERCENT = 90;

/** Which item a request is for, by its sort key (see the key functions of the feature stores, shared/<feature>/store). */
function categoryOf(sortKey: string): Category {
  if (sortKey.startsWith('VEHPOS#')) return 'latest_position';
  if (sortKey.startsWith('VEHHIST#')) return 'history_bucket';
  if (sortKey.startsWith('VEHTRACK#')) return 'tracking_item';
  if (sortKey.startsWith('VEHSEEN#')) return 'online_index';
  if (sortKey.startsWith('HOUR#')) return 'health_counters';
  if (sortKey.startsWith('VEH#')) return 'vehicle';
  if (sortKey.startsWith('EVT')) return 'events';
  return 'other';
}

/** `sk` of a Put's Item or an Update's / Delete's Key, marshalled or not. */
function sortKeyOf(request: Record<string, unknown> | undefined): string {
  const item = (request?.Item ?? request?.Key) as Record<string, unknown> | undefined;
  if (item?.sk !== undefined) return textOf(item.sk);
  // A batch read: its first key's (ingest reads one kind of item per batch: position items).
  const batch = request?.RequestItems as Record<string, { Keys?: Record<string, unknown>[] }> | undefined;
  const firstKey = batch ? Object.values(batch)[0]?.Keys?.[0] : undefined;
  if (firstKey?.sk !== undefined) return textOf(firstKey.sk);
  // A query: the sort-key value of its key condition (`:from`, `:hour`, `:prefix`, …).
  const values = (request?.ExpressionAttributeValues ?? {}) as Record<string, unknown>;
  return textOf(Object.entries(values).find(([name]) => name !== ':pk')?.[1]);
}

/** A string attribute, marshalled (`{ S }`) or not; '' for anything else. */
const textOf = (value: unknown) =>
  typeof value === 'string' ? value : ((value as { S?: string } | undefined)?.S ?? '');

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
    const kilobytes = item ? Math.ceil(dynamoItemBytes(item) / 1024) : 1;
    table += 2 * kilobytes;
    if (item?.gsi1pk !== undefined) gsi += kilobytes;
  }
  return { table, gsi };
}

/**
 * Write units of the keys-only gsi2 as DynamoDB bills them (developer guide, "Global secondary
 * indexes", write capacity): a table write that leaves an item's index keys as they were writes
 * nothing to a keys-only index; one that adds the keys writes 1 unit, removes them 1, changes them 2
 * (delete and put). DynamoDB Local reports single writes so; a transaction's are counted from its
 * items, so the ledger remembers each item's last keys, from every write, to tell which case it is.
 */
class KeysOnlyIndexLedger {
  private readonly keys = new Map<string, string | undefined>();

  /** Units of a write leaving the item (`pk`/`sk` of `request`) with `item`'s keys (undefined: none, or deleted). */
  unitsOf(request: Record<string, unknown> | undefined, after: Record<string, unknown> | undefined): number {
    const id = `${textOf(request?.pk ?? after?.pk)}|${textOf(request?.sk ?? after?.sk)}`;
    const before = this.keys.get(id);
    const next = after?.gsi2pk === undefined ? undefined : `${textOf(after.gsi2pk)}|${textOf(after.gsi2sk)}`;
    this.keys.set(id, next);
    if (before === next) return 0;
    return before === undefined || next === undefined ? 1 : 2;
  }
}

/** A sort key with its ids and times elided, so the writes of one kind of item add up together. */
const shapeOf = (sortKey: string) => sortKey.replace(/[0-9A-Z]{20,}|[0-9]{4,}.*$/g, '…');

/**
 * Every counted write by call and item shape (`BENCH_DETAIL=1` prints it): where a category's
 * units come from, e.g. how many of the events' units are the sequence counter or a dedupe guard.
 */
class WriteLedger {
  private readonly rows = new Map<string, { calls: number; units: number }>();

  note(what: string, units: number): void {
    const row = this.rows.get(what) ?? { calls: 0, units: 0 };
    row.calls += 1;
    row.units += units;
    this.rows.set(what, row);
  }

  print(scenario: string, breadcrumbs: number): void {
    console.log(`\n${scenario} (${breadcrumbs} breadcrumbs):`);
    for (const [what, { calls, units }] of [...this.rows].sort()) {
      console.log(`  ${what}: ${calls} calls, ${units} units`);
    }
  }
}

interface ScenarioUnits {
  writes: Record<Category, number>;
  reads: Record<Category, number>;
  gsiWrites: number;
  breadcrumbs: number;
}

const perBreadcrumb = (units: number, breadcrumbs: number) => Math.round((units / breadcrumbs) * 100) / 100;
const sum = (units: Record<Category, number>) => Object.values(units).reduce((a, b) => a + b, 0);

export async function benchWriteUnits(): Promise<WriteUnitsBench> {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  const db = await startDynamoDbLocal();
  try {
    const single = await measureScenario(db.endpoint, 1);
    const batched = await measureScenario(db.endpoint, 5);
    const unguided = await measureScenario(db.endpoint, 1, false);
    const n = single.breadcrumbs;
    return {
      dynamodb_write_units_per_breadcrumb: perBreadcrumb(sum(single.writes), n),
      dynamodb_write_units_latest_position: perBreadcrumb(single.writes.latest_position, n),
      dynamodb_write_units_history_bucket: perBreadcrumb(single.writes.history_bucket, n),
      dynamodb_write_units_tracking_item: perBreadcrumb(single.writes.tracking_item, n),
      dynamodb_write_units_online_index: perBreadcrumb(single.writes.online_index, n),
      dynamodb_write_units_health_counters: perBreadcrumb(single.writes.health_counters, n),
      dynamodb_write_units_events: perBreadcrumb(single.writes.events, n),
      dynamodb_write_units_other: perBreadcrumb(single.writes.other + single.writes.vehicle, n),
      dynamodb_write_units_gsi: perBreadcrumb(single.gsiWrites, n),
      dynamodb_read_units_per_breadcrumb: perBreadcrumb(sum(single.reads), n),
      dynamodb_read_units_latest_position: perBreadcrumb(single.reads.latest_position, n),
      dynamodb_read_units_history_bucket: perBreadcrumb(single.reads.history_bucket, n),
      dynamodb_read_units_tracking_item: perBreadcrumb(single.reads.tracking_item, n),
      dynamodb_read_units_vehicle: perBreadcrumb(single.reads.vehicle, n),
      dynamodb_read_units_other: perBreadcrumb(
        single.reads.other + single.reads.online_index + single.reads.health_counters + single.reads.events,
        n,
      ),
      dynamodb_write_units_per_breadcrumb_5_per_request: perBreadcrumb(
        sum(batched.writes),
        batched.breadcrumbs,
      ),
      dynamodb_read_units_per_breadcrumb_5_per_request: perBreadcrumb(
        sum(batched.reads),
        batched.breadcrumbs,
      ),
      dynamodb_write_units_per_breadcrumb_unguided: perBreadcrumb(sum(unguided.writes), unguided.breadcrumbs),
      dynamodb_write_units_tracking_item_unguided: perBreadcrumb(
        unguided.writes.tracking_item,
        unguided.breadcrumbs,
      ),
      dynamodb_read_units_per_breadcrumb_unguided: perBreadcrumb(sum(unguided.reads), unguided.breadcrumbs),
      dynamodb_breadcrumbs: n,
      dynamodb_vehicles: VEHICLES,
    };
  } finally {
    await db.stop();
  }
}

const zeroUnits = (): Record<Category, number> => ({
  latest_position: 0,
  history_bucket: 0,
  tracking_item: 0,
  online_index: 0,
  health_counters: 0,
  vehicle: 0,
  events: 0,
  other: 0,
});

/**
 * One fleet of {@link VEHICLES} trucks driving Dallas → Denver (under guidance unless `guided` is
 * false), a breadcrumb a minute each; every `perRequest` minutes one POST carries the fleet's last `perRequest` minutes, then the
 * worker's cycle runs once per message the request queued (one per vehicle).
 */
async function measureScenario(endpoint: string, perRequest: number, guided = true): Promise<ScenarioUnits> {
  const fleetId = newId('fleet');
  // Minute 0 is hh:00 some hours ago (breadcrumbs must not be in the future of the clock below).
  const startMs = Math.floor(Date.now() / HOUR_MS) * HOUR_MS - 3 * HOUR_MS;
  let nowMs = startMs;
  const now = () => nowMs;
  const infra = testInfrastructure({ tableName: TABLE, clock: { now }, endpoint });
  const { client } = infra;
  let counting = false;
  const writes = zeroUnits();
  const reads = zeroUnits();
  let gsiWrites = 0;
  let failedCalls = 0;
  const onlineIndex = new KeysOnlyIndexLedger();
  const ledger = new WriteLedger();
  infra.dynamo.middlewareStack.add(
    (next, context) => async (args) => {
      const input = args.input as Record<string, unknown>;
      input.ReturnConsumedCapacity = 'INDEXES';
      let result: Awaited<ReturnType<typeof next>>;
      try {
        result = await next(args);
      } catch (error) {
        // DynamoDB bills a failed conditional write too; the bench reports how many there were.
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
        // Each item's units to its own item kind (a ring flush: the chunk to history, the ring to the position).
        for (const entry of transactItems) {
          const units = transactionUnits([entry]);
          const item = entry.Put?.Item as Record<string, unknown> | undefined;
          // Only Puts (whole items) and the sweep's key removal touch gsi2 keys in a transaction.
          const online = entry.Put ? onlineIndex.unitsOf(item, item) : 0;
          writes[categoryOf(sortKeyOf(entry.Put ?? entry.Update ?? entry.Delete))] += units.table + units.gsi;
          const kind = entry.Put ? 'Put' : entry.Update ? 'Update' : entry.Delete ? 'Delete' : 'Check';
          const sizeKb = item ? Math.ceil(dynamoItemBytes(item) / 1024) : 0;
          ledger.note(
            `tx ${kind} ${shapeOf(sortKeyOf(entry.Put ?? entry.Update ?? entry.Delete ?? entry.ConditionCheck))} ${sizeKb}KB gsi${units.gsi}`,
            units.table + units.gsi + online,
          );
          writes.online_index += online;
          gsiWrites += units.gsi + online;
        }
      } else if (/^(Put|Update|Delete|BatchWrite)/.test(context.commandName ?? '')) {
        if (reported.length === 0) {
          throw new Error(`DynamoDB Local reported no ConsumedCapacity for ${context.commandName}`);
        }
        const item = input.Item as Record<string, unknown> | undefined;
        for (const capacity of reported) {
          // gsi2 by the ledger, which has to see every Put (a Put is the whole item; no Update on
          // this path sets its keys). For a single write it agrees with what DynamoDB Local reports.
          const reportedOnline = capacity.GlobalSecondaryIndexes?.gsi2?.CapacityUnits ?? 0;
          const online =
            context.commandName === 'PutItemCommand' ? onlineIndex.unitsOf(item, item) : reportedOnline;
          writes[categoryOfRequest(input)] += (capacity.CapacityUnits ?? 0) - reportedOnline;
          ledger.note(
            `${context.commandName} ${shapeOf(sortKeyOf(input))}`,
            (capacity.CapacityUnits ?? 0) - reportedOnline + online,
          );
          writes.online_index += online;
          for (const [name, index] of Object.entries(capacity.GlobalSecondaryIndexes ?? {})) {
            gsiWrites += name === 'gsi2' ? online : (index.CapacityUnits ?? 0);
          }
        }
      } else {
        for (const capacity of reported) reads[categoryOfRequest(input)] += capacity.CapacityUnits ?? 0;
      }
      return result;
    },
    { step: 'initialize', name: 'benchConsumedCapacity' },
  );

  try {
    await ensureTable(client, TABLE);
    // The composition root's guidance wiring. No webhook endpoints, so the fan-out would write
    // nothing (it would only read the endpoint list): it is left out.
    // The worker's own wiring, which plans with the start's too (the program read once per cycle).
    const deps = createGuidancePlanningDeps(infra, {
      events: eventRecorderOn(client, TABLE, 'prod', now),
    });
    const { catalog } = stationSources(infra);
    // The synthetic catalog, priced as of minute 0.
    await catalog.current();
    await tableStores(infra).fleets.putCompanyFleet(
      companyFleet(fleetId, { fuelProgram: discountsOnlyProgram(DISCOUNTS) }),
    );
    const at = formatTimestamp(startMs);
    const vehicles: Vehicle[] = [];
    for (let index = 0; index < VEHICLES; index++) {
      const vehicle: Vehicle = {
        id: newId('vehicle', startMs),
        fleetId,
        externalRef: `BENCH-WCU-${index}`,
        linkedExternalRefs: [],
        name: null,
        vin: null,
        ...TRUCK,
        licensePlate: null,
        fuelTaxTreatment: null,
        truckProfile: { ...UNSET_TRUCK_PROFILE },
        status: 'active',
        createdAt: at,
        updatedAt: at,
        version: 1,
      };
      await vehicleStore(infra).create(vehicle);
      vehicles.push(vehicle);
    }

    const route = computeEmbeddedRoute({ origin: DALLAS, destination: DENVER });
    const crumb = (index: number, minute: number) => {
      const miles = index * SPACING_MILES + minute;
      return {
        vehicle_id: (vehicles[index] as Vehicle).id,
        ...pointAlong(route, miles),
        recorded_at: new Date(startMs + minute * MINUTE_MS).toISOString(),
        fuel_level_percent: Math.round((START_FUEL_PERCENT - miles * PERCENT_PER_MILE) * 10) / 10,
        speed_mph: 60,
      };
    };
    /** One request with minutes `first`..`last` of every vehicle (received 5 s after the last), then the worker. */
    const report = async (first: number, last: number) => {
      nowMs = startMs + last * MINUTE_MS + 5_000;
      const items = [];
      for (let minute = first; minute <= last; minute++) {
        for (let index = 0; index < VEHICLES; index++) items.push(crumb(index, minute));
      }
      const response = await ingestLocations(ingestDeps(infra), fleetId, items);
      if (response.accepted !== items.length) {
        throw new Error(`minutes ${first}–${last}: ${response.rejected} breadcrumbs were rejected`);
      }
      // The worker's cycle for each message the request queued, as the queue hands them over.
      const messages = infra.sent.vehicleUpdates.take();
      if (messages.length !== VEHICLES) throw new Error(`${messages.length} vehicle updates were queued`);
      for (const message of messages) await processVehicleUpdate(deps, message);
    };

    await report(0, 0);
    const principal: Principal = {
      keyId: 'key_BENCH',
      keyName: 'bench',
      ownerType: 'company',
      accountId: `cmp_of_${fleetId}`,
      partnerId: null,
      ownFleetId: fleetId,
      mode: 'live',
      scopes: COMPANY_SCOPES,
      planName: 'local-dev',
      keyCreatedAt: '2026-11-01T00:00:00.000000Z',
    };
    // POST /v1/vehicles/{id}/guidance's use case: it plans at once and caches the route.
    for (const vehicle of guided ? vehicles : []) {
      await startGuidance(deps, principal, fleetId, vehicle.id, {
        destination: DENVER,
        min_arrival_fuel_percent: 20,
      });
    }
    for (let minute = 1; minute < WARM_UP_MINUTES; minute += perRequest) {
      await report(minute, Math.min(minute + perRequest - 1, WARM_UP_MINUTES - 1));
    }
    counting = true;
    for (let minute = WARM_UP_MINUTES; minute < WARM_UP_MINUTES + TIMED_MINUTES; minute += perRequest) {
      await report(minute, minute + perRequest - 1);
    }
    counting = false;

    if (process.env.BENCH_DETAIL) {
      ledger.print(`${guided ? 'guided' : 'unguided'}, ${perRequest} per request`, VEHICLES * TIMED_MINUTES);
    }
    if (failedCalls > 0) console.warn(`bench: ${failedCalls} DynamoDB calls failed during the counted run`);
    for (const vehicle of guided ? vehicles : []) {
      const tracking = await deps.tracking.get(fleetId, vehicle.id);
      if (tracking.session?.status !== 'active') {
        console.warn(`bench: a guidance session ended (${tracking.session?.endReason}) during the run`);
      }
    }
    return { writes, reads, gsiWrites, breadcrumbs: VEHICLES * TIMED_MINUTES };
  } finally {
    client.destroy();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) console.table(await benchWriteUnits());
