/**
 * What the simulated-fleet benches share: DynamoDB Local started for the run, a fixed clock at the
 * first drive's start, the table, and the drive simulation over them; the database stopped after.
 */
import { startDynamoDbLocal } from '#local/dynamodb-local.ts';
import { ensureTable } from '#local/table-setup.ts';
import { fixedClock } from '#shared/kernel/time.ts';
import { createDriveSimulation } from '#test/support/drives/harness.ts';
import { testInfrastructure } from '#test/support/infrastructure.ts';

type Infrastructure = ReturnType<typeof testInfrastructure>;

export async function withDriveSimulation<T>(
  tableName: string,
  firstStartMs: number,
  run: (context: {
    infra: Infrastructure;
    simulation: ReturnType<typeof createDriveSimulation>;
  }) => Promise<T>,
): Promise<T> {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  // Thousands of worker cycles: their usage metrics (EMF lines on stdout) would bury the table.
  process.env.POWERTOOLS_METRICS_DISABLED ??= 'true';
  const db = await startDynamoDbLocal();
  const clock = fixedClock(firstStartMs);
  const infra = testInfrastructure({ tableName, clock, endpoint: db.endpoint });
  try {
    await ensureTable(infra.client, tableName);
    return await run({ infra, simulation: createDriveSimulation(infra, clock) });
  } finally {
    await db.stop();
  }
}
