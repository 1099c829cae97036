/**
 * `npm run bench`: prints the figures and writes them to .local/bench.json. Figures are
 * measurements, not tests: nothing here fails a build.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { JavaMissingError } from '#local/java.ts';
import { benchColdStart } from './cold-start.ts';
import { benchCost } from './cost.ts';
import { benchFuelPlan } from './fuel-plan.ts';
import { benchFuelProgram } from './fuel-program.ts';
import { benchGuidance } from './guidance.ts';
import { benchGuidanceFleet } from './guidance-fleet.ts';
import { benchHealthScorecard } from './health-scorecard.ts';
import { benchIfta } from './ifta.ts';
import { benchIngest } from './ingest.ts';
import { benchRouting } from './routing.ts';
import { benchSavings } from './savings.ts';
import { benchSavingsAttribution } from './savings-attribution.ts';
import { benchSavingsReport } from './savings-report.ts';
import { benchStations } from './stations.ts';
import { benchTripCreate } from './trip-create.ts';
import { benchWriteUnits } from './write-units.ts';

/** The figures that need DynamoDB Local: without Java they are left out, and the others still print. */
async function withJava<T extends object>(bench: () => Promise<T>): Promise<Partial<T>> {
  try {
    return await bench();
  } catch (error) {
    if (!(error instanceof JavaMissingError)) throw error;
    console.warn(`${error.message}; ${bench.name} skipped`);
    return {};
  }
}

const figures = {
  measured_at: new Date().toISOString(),
  node: process.version,
  ...benchFuelPlan(),
  ...benchRouting(),
  ...benchStations(),
  ...benchSavings(),
  ...benchIfta(),
  ...benchFuelProgram(),
  ...(await benchGuidance()),
  ...(await withJava(benchWriteUnits)),
  ...(await withJava(benchIngest)),
  ...(await withJava(benchTripCreate)),
  ...(await withJava(benchSavingsReport)),
  ...(await withJava(benchHealthScorecard)),
  ...(await withJava(benchGuidanceFleet)),
  ...(await withJava(benchSavingsAttribution)),
  ...(await benchColdStart()),
};
// Composed from the write-unit figures above and the local stack's counted operations (bench/cost.ts).
Object.assign(figures, await withJava(benchCost.bind(null, figures)));
mkdirSync('.local', { recursive: true });
writeFileSync('.local/bench.json', `${JSON.stringify(figures, null, 2)}\n`);
console.table(Object.entries(figures).map(([figure, value]) => ({ figure, value })));
console.log('Written to .local/bench.json');
