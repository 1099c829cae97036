/**
 * `savings_report_ms`: GET /v1/reports/savings' use case for a fleet of 1,000 vehicles with 30 days
 * of fuelings and guidance, against DynamoDB Local. The report reads only the day items
 * (`SAVDAY#…`), so those are what is seeded at scale, written with the
 * store's own update items (`addToSavingsDay`, what recording a fill and withdrawing a stop send):
 * one fill and one recommended stop per vehicle and day. Five trucks' fills also go the whole way
 * (recordFuelings) so real contributions sit among the seeded ones.
 * Median of 5 timed reports after one warm-up. Run alone with `npx tsx bench/savings-report.ts`.
 */
import { pathToFileURL } from 'node:url';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { startDynamoDbLocal } from '#local/dynamodb-local.ts';
import { ensureTable } from '#local/table-setup.ts';
import { recordFuelings } from '#shared/fuelings/usecases/fuelings.ts';
import { purchaseCheckDeps } from '#shared/fuelings/wiring/fueling-batches.ts';
import { createFuelingRecordDeps } from '#shared/fuelings/wiring/fuelings.ts';
import { newId } from '#shared/kernel/ids.ts';
import { addToSavingsDay } from '#shared/reports/store/savings-days.ts';
import { savingsReport } from '#shared/reports/usecases/savings-report.ts';
import { savingsReportDeps } from '#shared/reports/wiring/reports.ts';
import { stationSources } from '#shared/stations/wiring/stations.ts';
import { createVehicle } from '#shared/vehicles/usecases/vehicles.ts';
import { vehicleStore } from '#shared/wiring/table-stores.ts';
import { testInfrastructure } from '#test/support/infrastructure.ts';
import { seededRandom } from '#test/support/seeded-random.ts';
import { percentileMs } from './measure.ts';

export interface SavingsReportBench {
  /** Median time of one fleet report (1,000 vehicles × 30 days), DynamoDB Local reads included. */
  savings_report_ms: number;
  savings_report_vehicle_days: number;
}

const TABLE = 'bench-savings-report';
const VEHICLES = 1000;
const DAYS = 30;
const DAY_MS = 86_400_000;
const SEED_CONCURRENCY = 32;

export async function benchSavingsReport(): Promise<SavingsReportBench> {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  const db = await startDynamoDbLocal();
  const nowMs = Date.now();
  const infra = testInfrastructure({ tableName: TABLE, clock: { now: () => nowMs }, endpoint: db.endpoint });
  const { client } = infra;
  try {
    await ensureTable(client, TABLE);
    const fleetId = newId('fleet');
    const random = seededRandom(12);
    const firstDay = Math.floor(nowMs / DAY_MS) * DAY_MS - (DAYS - 1) * DAY_MS;

    // The real path for a few trucks: card fills recorded.
    const vehicles = vehicleStore(infra);
    const real = [];
    for (let i = 0; i < 5; i++) {
      const created = await createVehicle({ vehicles, clock: infra.clock }, fleetId, {
        external_ref: `REAL-${i}`,
      });
      real.push(created.vehicle);
    }
    const deps = {
      ...createFuelingRecordDeps(infra, { record: async () => ({}) as never }),
      vehicles,
      catalog: stationSources(infra).catalog,
      fuelTaxes: stationSources(infra).fuelTaxes,
      ...purchaseCheckDeps(infra),
      now: () => nowMs,
    };
    for (const truck of real) {
      await recordFuelings(
        deps,
        fleetId,
        Array.from({ length: DAYS }, (_, d) => ({
          vehicle_id: truck.id,
          fueled_at: new Date(firstDay + d * DAY_MS + 12 * 3_600_000).toISOString(),
          gallons: 90 + d,
          price_usd_per_gallon: 3.5,
          latitude: 35.2,
          longitude: -97.4,
        })),
      );
    }

    // The rest of the fleet's rows, as those paths write them.
    const rows: { vehicleId: string; day: string; ref: string }[] = [];
    for (let v = 0; v < VEHICLES - real.length; v++) {
      const vehicleId = newId('vehicle');
      for (let d = 0; d < DAYS; d++) {
        rows.push({
          vehicleId,
          day: new Date(firstDay + d * DAY_MS).toISOString().slice(0, 10),
          ref: `TRUCK-${v}`,
        });
      }
    }
    let next = 0;
    const seed = async () => {
      while (next < rows.length) {
        const row = rows[next++] as (typeof rows)[number];
        const gallons = 60 + Math.floor(random() * 100);
        const spendCents = Math.round(gallons * (340 + random() * 30));
        const item = addToSavingsDay(TABLE, fleetId, {
          day: row.day,
          vehicleId: row.vehicleId,
          cause: newId('fueling'),
          delta: {
            fuelings: 1,
            milliGallons: gallons * 1000,
            pricedMilliGallons: gallons * 1000,
            spendCents,
            benchmarkCents: spendCents + Math.round(gallons * random() * 20),
            missedCents: random() < 0.2 ? Math.round(random() * 2000) : 0,
          },
          externalRef: row.ref,
        });
        const stop = addToSavingsDay(TABLE, fleetId, {
          day: row.day,
          vehicleId: row.vehicleId,
          cause: `${newId('guidanceStop')}:withdrawn`,
          delta: { recommendedStops: 1, followedStops: random() < 0.7 ? 1 : 0 },
        });
        await client.send(new UpdateCommand(stop.Update as ConstructorParameters<typeof UpdateCommand>[0]));
        await client.send(new UpdateCommand(item.Update as ConstructorParameters<typeof UpdateCommand>[0]));
      }
    };
    await Promise.all(Array.from({ length: SEED_CONCURRENCY }, seed));

    const reportDeps = savingsReportDeps(infra);
    const run = async () => {
      const started = performance.now();
      const report = await savingsReport(reportDeps, fleetId, {});
      const elapsed = performance.now() - started;
      if (report.vehicles.length !== VEHICLES) {
        throw new Error(`the report listed ${report.vehicles.length} vehicles, not ${VEHICLES}`);
      }
      return elapsed;
    };
    await run();
    const samples: number[] = [];
    for (let i = 0; i < 5; i++) samples.push(await run());
    return {
      savings_report_ms: Math.round(percentileMs(samples, 0.5)),
      savings_report_vehicle_days: VEHICLES * DAYS,
    };
  } finally {
    client.destroy();
    await db.stop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) console.table(await benchSavingsReport());
