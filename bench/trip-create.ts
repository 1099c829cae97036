/**
 * Trip creation with auto_optimize, as POST /v1/trips runs it: `createTrip` wired by the
 * composition root (shared/trips/wiring/trips.ts) against DynamoDB Local, the embedded router and the
 * synthetic catalog. A truck that reported from Dallas at 40 % gets trips to Denver planned one
 * after another; each is routed, its corridor priced, its fuel stops planned, charged to the station
 * budget and the trip stored.
 * The first few are a warm-up (the catalog index, the routing graph, the SDK's connections).
 * Run alone with `npx tsx bench/trip-create.ts`; the suite runner imports `benchTripCreate`.
 */
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { startDynamoDbLocal } from '#local/dynamodb-local.ts';
import { ensureTable } from '#local/table-setup.ts';
import { newId } from '#shared/kernel/ids.ts';
import { formatTimestamp } from '#shared/kernel/time.ts';
import { latestPositionKey } from '#shared/tracking/store/vehicle-positions.ts';
import { createTrip } from '#shared/trips/usecases/trips.ts';
import { tripDeps } from '#shared/trips/wiring/trips.ts';
import { createVehicle } from '#shared/vehicles/usecases/vehicles.ts';
import { vehicleStore } from '#shared/wiring/table-stores.ts';
import { testInfrastructure } from '#test/support/infrastructure.ts';
import { dispatcherPrincipal } from '#test/support/principals.ts';
import { percentileMs } from './measure.ts';
import { DALLAS, DENVER, TRUCK } from './trip.ts';

export interface TripCreateBench {
  /** Median time of one create with auto_optimize (route, corridor, fuel plan, store). */
  trip_create_p50_ms: number;
  trip_create_p95_ms: number;
  trip_create_samples: number;
}

const TABLE = 'bench-trip-create';
const WARM_UP = 5;
const SAMPLES = 40;

export async function benchTripCreate(): Promise<TripCreateBench> {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  const db = await startDynamoDbLocal();
  try {
    const infra = testInfrastructure({ tableName: TABLE, endpoint: db.endpoint });
    await ensureTable(infra.client, TABLE);
    const deps = tripDeps(infra);
    const fleetId = newId('fleet');
    const { vehicle } = await createVehicle({ vehicles: vehicleStore(infra), clock: infra.clock }, fleetId, {
      external_ref: 'BENCH-TRIP',
      tank_size_gallons: TRUCK.tankSizeGallons,
      estimated_mpg: TRUCK.estimatedMpg,
    });
    // Its latest position as ingest writes it: Dallas, 40 % in the tank.
    await infra.client.send(
      new PutCommand({
        TableName: TABLE,
        Item: {
          ...latestPositionKey(fleetId, vehicle.id),
          ...DALLAS,
          recorded_at: formatTimestamp(Date.now()),
          fuel_level_percent: 40,
        },
      }),
    );
    const timings: number[] = [];
    for (let i = 0; i < WARM_UP + SAMPLES; i++) {
      const started = performance.now();
      await createTrip(deps, dispatcherPrincipal(fleetId), fleetId, {
        vehicle_id: vehicle.id,
        origin: { ...DALLAS, name: 'Dallas' },
        destination: DENVER,
        planned_start_at: new Date(Date.now() + i * 60_000).toISOString(),
        auto_optimize: true,
      });
      if (i >= WARM_UP) timings.push(performance.now() - started);
    }
    return {
      trip_create_p50_ms: percentileMs(timings, 0.5),
      trip_create_p95_ms: percentileMs(timings, 0.95),
      trip_create_samples: SAMPLES,
    };
  } finally {
    await db.stop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) console.table(await benchTripCreate());
