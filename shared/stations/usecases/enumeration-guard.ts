import { formatTimestamp } from '#shared/kernel/time.ts';
import type { Principal } from '#shared/keys/domain/api-key.ts';
import type { Plan } from '#shared/plans/domain/plans.ts';
import { ApiError } from '#shared/platform/errors.ts';
import { logger } from '#shared/platform/observability.ts';
import {
  assessWindow,
  bucketOf,
  type EnumerationGuardSettings,
  enumerationGuardOf,
  type Finding,
  footprintEntries,
  judgeSuspicion,
  type QueryFootprint,
  staleBuckets,
  WINDOW_BUCKETS,
} from '../domain/enumeration-guard.ts';
import type { EnumerationWindowStore } from '../store/enumeration-windows.ts';

export interface EnumerationGuardDeps {
  windows: EnumerationWindowStore;
  plan: (name: string) => Promise<Plan | null>;
  now: () => number;
}

/**
 * Records a station query's footprint (its cells and the areas its radius or corridor covers) in
 * the key's window and refuses it with 403 `enumeration_suspected` when the key is cooling down or
 * the window now looks like a sweep far from the fleet's vehicles. Runs after the chain's key,
 * rate, scope and fleet checks, before any station is looked up. Costs one atomic add to the
 * current time bucket (plus, now and then, a removal of buckets a quiet key left behind); the
 * fleet's positions are read only for a suspicious window. A DynamoDB failure lets the query
 * through: losing the guard for a moment beats failing paying customers.
 */
export async function guardStationQuery(
  deps: EnumerationGuardDeps,
  principal: Principal,
  fleetId: string,
  footprint: QueryFootprint,
): Promise<void> {
  let refused: ApiError | null;
  try {
    const settings = enumerationGuardOf((await deps.plan(principal.planName))?.enumerationGuard);
    // One window per key *and acting fleet*: a window is judged against that fleet's vehicles, so
    // a partner key serving fleets in ten regions must not have one fleet's cells count as far
    // from another's.
    refused = await judge(deps, `${principal.keyId}#${fleetId}`, fleetId, footprint, settings);
  } catch (error) {
    logger.warn('Enumeration guard unavailable; station query not guarded', { error });
    return;
  }
  if (refused) throw refused;
}

async function judge(
  deps: EnumerationGuardDeps,
  windowId: string,
  fleetId: string,
  footprint: QueryFootprint,
  settings: EnumerationGuardSettings,
): Promise<ApiError | null> {
  const nowMs = deps.now();
  const bucket = bucketOf(nowMs, settings);
  const added = await deps.windows.add(
    windowId,
    bucket,
    footprintEntries(footprint),
    bucket - WINDOW_BUCKETS,
    nowMs,
    nowMs + settings.windowMinutes * 60_000,
  );
  const step = assessWindow(added.window, nowMs, settings);
  if (step.kind === 'blocked') return refusal(step.blockedUntilMs, step.finding, settings);
  if (step.kind === 'vetted') return null;
  // A quiet key leaves buckets the add's own removal did not reach: best effort, a later query retries.
  const stale = staleBuckets(added.window, nowMs, settings);
  if (stale.length) await deps.windows.removeBuckets(windowId, stale);
  if (step.kind === 'clear') return null;
  const verdict = judgeSuspicion(step, await deps.windows.fleetPositions(fleetId), nowMs, settings);
  const judged = [...step.window.buckets.keys()];
  if (verdict.kind === 'allow') {
    await deps.windows.markVetted(windowId, verdict.vettedUntilMs, judged);
    return null;
  }
  await deps.windows.block(windowId, verdict.blockedUntilMs, verdict.finding, judged);
  logger.warn('Station queries flagged as enumeration', { window: windowId, ...verdict.finding });
  return refusal(verdict.blockedUntilMs, verdict.finding, settings);
}

/** What the window held, in words: the rule that tripped and its count. */
function described(finding: Finding, settings: EnumerationGuardSettings): string {
  const within = `in ${settings.windowMinutes} minutes`;
  switch (finding.rule) {
    case 'lattice':
      return `were made at ${finding.used} distinct map cells ${within}, laid out like a regular lattice`;
    case 'cells':
      return `were made at ${finding.used} distinct map cells ${within}`;
    case 'areas':
      return `covered ${finding.used} distinct areas of about 35 miles ${within}`;
  }
}

/**
 * The problem, with `limit` and `used` of the rule that tripped, as the window it judged held them
 * (stored with the cool-down, so every refusal of the cool-down repeats the same figures).
 */
function refusal(blockedUntilMs: number, finding: Finding, settings: EnumerationGuardSettings) {
  const until = formatTimestamp(blockedUntilMs);
  return new ApiError(
    'enumeration_suspected',
    `This key's station queries ${described(finding, settings)}, far from the fleet's vehicles; ` +
      `station queries are refused until ${until}.`,
    {
      hint: `reduce breadth and frequency of station queries; this key may query stations again at ${until}`,
      extensions: { limit: finding.limit, used: finding.used, cool_down_until: until },
    },
  );
}
