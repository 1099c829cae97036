/**
 * `npm run bench`: prints the figures and writes them to .local/bench.json. Figures are
 * measurements, not tests: nothing here fails a build.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { benchFuelPlan } from './fuel-plan.ts';
import { benchRouting } from './routing.ts';
import { benchSavings } from './savings.ts';
import { benchStations } from './stations.ts';

const figures = {
  measured_at: new Date().toISOString(),
  node: process.version,
  ...benchFuelPlan(),
  ...benchRouting(),
  ...benchStations(),
  ...benchSavings(),
};
mkdirSync('.local', { recursive: true });
writeFileSync('.local/bench.json', `${JSON.stringify(figures, null, 2)}\n`);
console.table(Object.entries(figures).map(([figure, value]) => ({ figure, value })));
console.log('Written to .local/bench.json');
