/**
 * The simulated fleet: 200 seeded drives on the embedded network (test/support/drives/), fed
 * through the ingest use case and the guidance worker's cycle on DynamoDB Local, live, buffered
 * and hours late, with gauge noise, GPS jitter and prices moving during the drive. Measures how
 * well the advice holds: shown stops withdrawn while the truck heads to them, fills at the shown
 * stop matched to it, and guidance.updated per truck-hour.
 * Run alone with `npx tsx bench/guidance-fleet.ts [drives] [--explain]` (`--explain`: a line per
 * shown stop withdrawn, with its cause); the suite runner imports `benchGuidanceFleet`.
 */
import { pathToFileURL } from 'node:url';
import { type FleetFigures, fleetFigures, shownStopWithdrawals } from '#test/support/drives/figures.ts';
import { generateFleet } from '#test/support/drives/generator.ts';
import type { DriveOutcome } from '#test/support/drives/harness.ts';
import { withDriveSimulation } from './drive-simulation.ts';

export interface GuidanceFleetBench extends FleetFigures {
  guidance_fleet_seconds: number;
}

const TABLE = 'bench-guidance-fleet';
const DRIVES = 200;
const SEED = 26;
/** Each group gets a day of the clock to itself: drives, late uploads and all. */
const GROUP_SPACING_MS = 86_400_000;
const FIRST_START_MS = Date.parse('2026-11-02T06:00:00Z');

/**
 * One line per shown stop withdrawn (`--explain`): its cause, how far ahead it still was, the level
 * the plan worked from, what replaced it, and the drive (behaviour, delivery) to replay it from.
 */
function explainWithdrawals(outcomes: readonly DriveOutcome[], deliveries: ReadonlyMap<number, string>) {
  for (const outcome of outcomes) {
    for (const w of shownStopWithdrawals(outcome)) {
      console.log(
        [
          w.cause.padEnd(15),
          `drive ${outcome.spec.index} (${outcome.spec.from.id} → ${outcome.spec.to.id},`,
          `${outcome.spec.behaviour}, ${deliveries.get(outcome.spec.index)}):`,
          `${w.stop.stationId} ${w.milesAhead} mi ahead at ${w.fuelPercent ?? '?'} %`,
          `→ ${w.replacedBy?.stationId ?? 'no stop'}`,
        ].join(' '),
      );
    }
  }
}

export async function benchGuidanceFleet(
  drives = DRIVES,
  options: { explain?: boolean } = {},
): Promise<GuidanceFleetBench> {
  const started = performance.now();
  return withDriveSimulation(TABLE, FIRST_START_MS, async ({ simulation }) => {
    const outcomes: DriveOutcome[] = [];
    const groups = generateFleet({ seed: SEED, drives });
    for (const [index, group] of groups.entries()) {
      outcomes.push(
        ...(await simulation.runGroup(group, FIRST_START_MS + index * GROUP_SPACING_MS, SEED + index)),
      );
    }
    if (options.explain) {
      explainWithdrawals(
        outcomes,
        new Map(groups.flatMap((g) => g.drives.map((d) => [d.index, g.delivery] as const))),
      );
    }
    return {
      ...fleetFigures(outcomes),
      guidance_fleet_seconds: Math.round((performance.now() - started) / 100) / 10,
    };
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const args = process.argv.slice(2);
  const drives = args.find((arg) => !arg.startsWith('--'));
  console.table(await benchGuidanceFleet(Number(drives ?? DRIVES), { explain: args.includes('--explain') }));
}
