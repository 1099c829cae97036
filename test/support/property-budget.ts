/**
 * How long a property test may run before it fails. A property's budget is its number of runs
 * (`numRuns`, never a time limit, so a busy machine checks as many cases as an idle one); the
 * slowest of them takes about a second on an idle 2-core machine, and a loaded one runs 2–3×
 * slower. This fails a property that hangs, never one that ran on a busy machine.
 */
export const PROPERTY_TIMEOUT_MS = 30_000;

/**
 * The simulated drives of the guidance property test (test/integration/guidance/guidance-drives.property.test.ts):
 * how many drives fuel at the stop shown when guidance started, and how many take each negative
 * turn (pass the exit, exit and turn back, fuel elsewhere). A fixed count, never a time limit.
 */
export const GUIDANCE_DRIVE_RUNS = { fuelsAtShownStop: 20, negative: 9 } as const;

/**
 * How long one group of simulated drives (up to two trucks, one fleet, one provider) may run: the
 * longest, two live trucks reporting every 30 s for 150 miles, is about 600 worker cycles, ~15 s on
 * an idle 2-core machine beside DynamoDB Local's JVM, so 2–3× that when loaded.
 */
export const DRIVE_GROUP_TIMEOUT_MS = 120_000;

/**
 * The savings property (test/integration/reports/savings-attribution.property.test.ts): simulated drives of
 * followers, drivers who ignore the shown stop and early fillers, each fill reported by card, whose
 * report must equal the saving computed from the drives. A fixed count, never a time limit.
 */
export const SAVINGS_DRIVE_RUNS = 12;
