/**
 * `health_scorecard_ms`: GET /v1/integration/health's scorecard for a fleet of 1,000 vehicles with a
 * day of breadcrumbs, against DynamoDB Local. The scorecard reads maintained aggregates only, so the
 * day is seeded as those aggregates hold it, with the stores' own writes: 2,880 ingest requests of
 * 500 breadcrumbs (every vehicle once a minute) as their hourly counter updates, three endpoints'
 * delivery attempts, 300 guidance sessions; and the last hour's breadcrumbs (one per vehicle every 5
 * minutes) go through the real ingest path, so history items, latest positions and counters written
 * by ingest itself sit in the fleet's partition beside them.
 * Median of 5 timed scorecards after one warm-up. Run alone with `npx tsx bench/health-scorecard.ts`.
 */
import { pathToFileURL } from 'node:url';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { startDynamoDbLocal } from '#local/dynamodb-local.ts';
import { ensureTable } from '#local/table-setup.ts';
import { createIntegrationCounterStore } from '#shared/integration-health/store/integration-counters.ts';
import { fleetScorecard } from '#shared/integration-health/usecases/integration-health.ts';
import { integrationHealthDeps } from '#shared/integration-health/wiring/integration-health.ts';
import { newId } from '#shared/kernel/ids.ts';
import { trackingKey } from '#shared/tracking/store/vehicle-tracking.ts';
import { ingestLocations } from '#shared/tracking/usecases/ingest.ts';
import { ingestDeps } from '#shared/tracking/wiring/tracking.ts';
import { createVehicle } from '#shared/vehicles/usecases/vehicles.ts';
import { vehicleStore } from '#shared/wiring/table-stores.ts';
import { testInfrastructure } from '#test/support/infrastructure.ts';
import { percentileMs } from './measure.ts';

export interface HealthScorecardBench {
  /** Median time of one scorecard (1,000 vehicles, a day of breadcrumbs), DynamoDB Local reads included. */
  health_scorecard_ms: number;
  health_scorecard_vehicles: number;
}

const TABLE = 'bench-health-scorecard';
const VEHICLES = 1000;
const HOUR_MS = 3_600_000;
const CONCURRENCY = 16;

async function inParallel<T>(items: readonly T[], work: (item: T) => Promise<unknown>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < items.length) await work(items[next++] as T);
    }),
  );
}

export async function benchHealthScorecard(): Promise<HealthScorecardBench> {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  const db = await startDynamoDbLocal();
  const nowMs = Date.now();
  const infra = testInfrastructure({ tableName: TABLE, clock: { now: () => nowMs }, endpoint: db.endpoint });
  const { client } = infra;
  try {
    await ensureTable(client, TABLE);
    const fleetId = newId('fleet');
    const vehicles = vehicleStore(infra);
    const ids: string[] = [];
    await inParallel(
      Array.from({ length: VEHICLES }, (_, i) => i),
      async (i) => {
        const { vehicle } = await createVehicle({ vehicles, clock: infra.clock }, fleetId, {
          external_ref: `TRUCK-${i}`,
          ...(i % 50 === 0 ? {} : { tank_size_gallons: 240, estimated_mpg: 6.8 }),
        });
        ids.push(vehicle.id);
      },
    );

    // The day before the last hour, as ingest's per-request counter writes left it.
    const counters = createIntegrationCounterStore(client, TABLE);
    const requests = Array.from({ length: 23 * 120 }, (_, r) => nowMs - HOUR_MS - r * 30_000);
    await inParallel(requests, (atMs) =>
      counters.recordIngest(fleetId, atMs, {
        accepted: 498,
        withLevel: 480,
        rejected: 2,
        gapMsSum: 498 * 60_000,
        gapCount: 498,
      }),
    );
    const attempts = Array.from({ length: 24 * 3 * 40 }, (_, a) => a);
    await inParallel(attempts, (a) =>
      counters.recordDeliveryAttempt(fleetId, `whk_${a % 3}`, nowMs - (a % 24) * HOUR_MS, a % 17 !== 0),
    );
    await inParallel(ids.slice(0, 300), (vehicleId) =>
      client.send(
        new PutCommand({
          TableName: TABLE,
          Item: {
            ...trackingKey(fleetId, vehicleId),
            session: { id: newId('guidance'), status: 'active' },
            version: 1,
          },
        }),
      ),
    );

    // The last hour through the real ingest path: every vehicle every 5 minutes, 500 per request.
    const batches: {
      vehicle_id: string;
      latitude: number;
      longitude: number;
      recorded_at: string;
      fuel_level_percent: number;
    }[][] = [];
    for (let step = 12; step >= 1; step -= 1) {
      const recordedAt = new Date(nowMs - step * 5 * 60_000).toISOString();
      for (let start = 0; start < ids.length; start += 500) {
        batches.push(
          ids.slice(start, start + 500).map((vehicle_id, i) => ({
            vehicle_id,
            latitude: 35 + i / 1000,
            longitude: -97 - step / 100,
            recorded_at: recordedAt,
            fuel_level_percent: 70,
          })),
        );
      }
    }
    const ingest = ingestDeps(infra);
    for (const batch of batches) await ingestLocations(ingest, fleetId, batch);

    const deps = integrationHealthDeps(infra);
    const run = async () => {
      const started = performance.now();
      const card = await fleetScorecard(deps, fleetId, new Date(nowMs - 30 * 86_400_000).toISOString());
      const elapsed = performance.now() - started;
      if (card.counts.vehicles_reporting_24h !== VEHICLES) {
        throw new Error(
          `the scorecard saw ${card.counts.vehicles_reporting_24h} vehicles reporting, not ${VEHICLES}`,
        );
      }
      return elapsed;
    };
    await run();
    const samples: number[] = [];
    for (let i = 0; i < 5; i++) samples.push(await run());
    return {
      health_scorecard_ms: Math.round(percentileMs(samples, 0.5)),
      health_scorecard_vehicles: VEHICLES,
    };
  } finally {
    client.destroy();
    await db.stop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href)
  console.table(await benchHealthScorecard());
