/**
 * How long a property test may run before it fails. A property's budget is its number of runs
 * (`numRuns`, never a time limit, so a busy machine checks as many cases as an idle one); the
 * slowest of them takes about a second on an idle 2-core machine, and a loaded one runs 2–3×
 * slower. This fails a property that hangs, never one that ran on a busy machine.
 */
export const PROPERTY_TIMEOUT_MS = 30_000;
