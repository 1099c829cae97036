import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fuelingResource } from '#shared/fuelings/api/serializers.ts';
import { fuelingStores } from '#shared/fuelings/wiring/fuelings.ts';
import { fixedClock } from '#shared/kernel/time.ts';
import { LOOP_EVENTS, loopEventsAt } from '#test/support/drives/figures.ts';
import {
  type DriveGroup,
  type DriverBehaviour,
  drivesToShownStop,
  generateFleet,
} from '#test/support/drives/generator.ts';
import { createDriveSimulation, type DriveOutcome, type SeenStop } from '#test/support/drives/harness.ts';
import { createTestTable, deleteTestTable, testDocumentClient } from '#test/support/dynamodb.ts';
import { type TestInfrastructure, testInfrastructure } from '#test/support/infrastructure.ts';
import { DRIVE_GROUP_TIMEOUT_MS, GUIDANCE_DRIVE_RUNS } from '#test/support/property-budget.ts';

/**
 * The stop the driver was shown is the stop that counts, whatever the telematics: seeded drives on
 * the embedded network (start fuel 12–60 %, cadence 30 s–5 min, gauge slosh, GPS jitter, prices
 * moving, live, buffered and hours-late delivery, several trucks a batch, items out of order) go
 * through ingest and the guidance worker's cycle on DynamoDB Local. A driver who fuels at the stop
 * shown when guidance started gets arrived → recorded → matched → departed, for that stop; one who
 * passes the exit, turns back, or fuels elsewhere gets no match.
 */
const client = testDocumentClient();
const clock = fixedClock(Date.parse('2026-11-09T06:00:00Z'));
/** Each group of trucks has a day of the clock to itself (drive, late upload and all). */
const GROUP_SPACING_MS = 86_400_000;

let table: string;
let infra: TestInfrastructure;
let simulation: ReturnType<typeof createDriveSimulation>;
let groupsRun = 0;

beforeAll(async () => {
  table = await createTestTable(client, 'guidance-drives');
  infra = testInfrastructure({ tableName: table, clock });
  simulation = createDriveSimulation(infra, clock);
});
afterAll(() => deleteTestTable(client, table));

const run = (group: DriveGroup, seed: number) =>
  simulation.runGroup(group, clock.now() + GROUP_SPACING_MS * ++groupsRun, seed);

const describeGroup = (group: DriveGroup) =>
  `${group.drives.length} truck(s), ${group.delivery}${group.outOfOrder ? ' out of order' : ''}: ${group.drives
    .map((d) => `${d.from.name}→${d.to.name} ${d.startFuelPercent}% every ${d.cadenceSeconds}s`)
    .join('; ')}`;

/** What a failed expectation should show: the drive and its events. */
const story = (outcome: DriveOutcome) =>
  `${outcome.spec.behaviour} ${outcome.spec.from.name}→${outcome.spec.to.name} shown ${outcome.shownAtStart?.stationId}; ` +
  `events ${outcome.events.map((e) => `${e.type}${e.data.stop_id ? `(${e.data.stop_id})` : ''}`).join(', ')}; ` +
  `dead letters ${outcome.deadLetters.join(' | ')}`;

/** Arrivals at and departures from the stop. */
const visitsTo = (outcome: DriveOutcome, stop: SeenStop) =>
  loopEventsAt(outcome, stop).filter((e) => e.type.startsWith('vehicle.'));

const typesOf = (outcome: DriveOutcome, types: readonly string[]) =>
  outcome.events.filter((e) => types.includes(e.type)).map((e) => e.type);

describe('drivers who fuel at the stop shown when guidance started', () => {
  const groups = generateFleet({
    seed: 2026,
    drives: GUIDANCE_DRIVE_RUNS.fuelsAtShownStop,
    maxGroupSize: 2,
    behaviours: { fuels_at_shown_stop: 1 },
    deliveries: { live: 1, buffered: 1, hours_late: 1 },
  });
  let driven = 0;
  const deliveries = new Set<string>();

  for (const [index, group] of groups.entries()) {
    it(`arrive, fill, match and depart: ${describeGroup(group)}`, {
      timeout: DRIVE_GROUP_TIMEOUT_MS,
    }, async () => {
      for (const outcome of await run(group, 100 + index)) {
        expect(outcome.deadLetters, story(outcome)).toEqual([]);
        const shown = outcome.shownAtStart;
        if (!drivesToShownStop(outcome.spec, shown)) continue;
        driven += 1;
        deliveries.add(group.delivery);
        const loop = loopEventsAt(outcome, shown);
        expect(
          loop.map((e) => e.type),
          story(outcome),
        ).toEqual([...LOOP_EVENTS]);
        const [arrived, recorded, matched, departed] = loop;
        expect(arrived?.data, story(outcome)).toMatchObject({
          guidance_id: outcome.guidanceId,
          stop_id: shown.id,
        });
        expect(matched?.data, story(outcome)).toMatchObject({
          fueling_id: recorded?.data.fueling_id,
          guidance_id: outcome.guidanceId,
          stop_id: shown.id,
          station_id: shown.stationId,
        });
        expect(departed?.data, story(outcome)).toMatchObject({ stop_id: shown.id });
        // Judged on the breadcrumbs' time: the visit spans the dwell, however late it was uploaded.
        const dwell = departed?.data.dwell_minutes as number;
        expect(dwell, story(outcome)).toBeGreaterThan(
          outcome.spec.dwellMinutes - 2 * (outcome.spec.cadenceSeconds / 60) - 1,
        );
        expect(dwell, story(outcome)).toBeLessThan(
          outcome.spec.dwellMinutes + 2 * (outcome.spec.cadenceSeconds / 60) + 1,
        );
        expect(recorded?.data.gallons, story(outcome)).toBeGreaterThan(0);
      }
    });
  }

  it('drove most of them to their stop, delivered every way (the property is not vacuous)', () => {
    expect(driven).toBeGreaterThanOrEqual(GUIDANCE_DRIVE_RUNS.fuelsAtShownStop / 2);
    expect([...deliveries].sort()).toEqual(['buffered', 'hours_late', 'live']);
  });
});

describe('drivers who do not fuel at the shown stop', () => {
  const behaviours: DriverBehaviour[] = ['passes_the_exit', 'exits_and_turns_back', 'fuels_elsewhere'];
  const groups = generateFleet({
    seed: 4711,
    drives: GUIDANCE_DRIVE_RUNS.negative,
    maxGroupSize: 2,
    behaviours: { passes_the_exit: 1, exits_and_turns_back: 1, fuels_elsewhere: 1 },
  });
  const seen = new Set<DriverBehaviour>();

  for (const [index, group] of groups.entries()) {
    it(`are not matched: ${describeGroup(group)}`, { timeout: DRIVE_GROUP_TIMEOUT_MS }, async () => {
      for (const outcome of await run(group, 200 + index)) {
        expect(outcome.deadLetters, story(outcome)).toEqual([]);
        const shown = outcome.shownAtStart;
        if (!drivesToShownStop(outcome.spec, shown)) continue;
        seen.add(outcome.spec.behaviour);
        expect(typesOf(outcome, ['fueling.matched']), story(outcome)).toEqual([]);
        expect(visitsTo(outcome, shown), story(outcome)).toEqual([]);
        const last = outcome.sightings.at(-1);
        if (outcome.spec.behaviour === 'fuels_elsewhere') {
          // The fill is on record, and says why adherence did not count it.
          expect(typesOf(outcome, ['fueling.recorded']), story(outcome)).toEqual(['fueling.recorded']);
          const fills = await fuelingStores(infra).fuelings.list(
            outcome.fleetId,
            { vehicleId: outcome.vehicleId },
            10,
          );
          expect(fills.data, story(outcome)).toHaveLength(1);
          const fill = fuelingResource(fills.data[0] as (typeof fills.data)[number]) as Record<
            string,
            unknown
          >;
          expect(fill.unmatched_reason, story(outcome)).toEqual(expect.any(String));
        } else {
          // No stop, no fill: nothing was arrived at, recorded or matched.
          expect(
            typesOf(outcome, ['vehicle.stop_arrived', 'vehicle.stop_departed', 'fueling.recorded']),
            story(outcome),
          ).toEqual([]);
        }
        // Passed without stopping in the end: the stop is no longer the one ahead.
        expect(last?.first?.stationId, story(outcome)).not.toBe(shown.stationId);
      }
    });
  }

  it('covered every negative turn', () => {
    expect([...seen].sort()).toEqual([...behaviours].sort());
  });
});
