import { startDynamoDbLocal } from './local/dynamodb-local.ts';
import { ensureTable } from './local/table-setup.ts';
import { fixedClock } from './shared/platform/time.ts';
import { generateFleet, routeOf } from './test/support/drives/generator.ts';
import { createDriveSimulation } from './test/support/drives/harness.ts';
import { loopEventsAt, shownStopWithdrawals, updatesPerHour } from './test/support/drives/figures.ts';
import { testInfrastructure } from './test/support/infrastructure.ts';
import { projectOntoRoute } from './shared/geo/route-projection.ts';
process.env.POWERTOOLS_METRICS_DISABLED = 'true';
const db = await startDynamoDbLocal();
const clock = fixedClock(Date.parse('2026-11-02T06:00:00Z'));
const infra = testInfrastructure({ tableName: 'probe', clock, endpoint: db.endpoint });
await ensureTable(infra.client, 'probe');
const sim = createDriveSimulation(infra, clock);
const groups = generateFleet({ seed: Number(process.argv[3] ?? 26), drives: Number(process.argv[2] ?? 8) });
for (const [i, g] of groups.entries()) {
  const t = performance.now();
  const out = await sim.runGroup(g, Date.parse('2026-11-02T06:00:00Z') + i * 86400000, i);
  for (const o of out) {
    const foot = o.shownAtStart ? projectOntoRoute(routeOf(o.spec), o.shownAtStart).milesAlongRoute - o.spec.startMile : null;
    console.log(g.delivery, g.outOfOrder, o.spec.behaviour, o.spec.from.id, o.spec.to.id, 'fuel', o.spec.startFuelPercent, 'cad', o.spec.cadenceSeconds, 'crumbs', o.crumbs.length, 'stopAhead', foot?.toFixed(1), 'wd', shownStopWithdrawals(o).length, 'uph', updatesPerHour(o).toFixed(1),
      'loop', o.shownAtStart ? loopEventsAt(o, o.shownAtStart).map(e => e.type.split('.')[1]).join(',') : '-', 'types', [...new Set(o.events.map(e=>e.type))].join(' '));
  }
  console.log('group ms', Math.round(performance.now() - t));
}
await db.stop();
