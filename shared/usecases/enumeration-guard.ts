import type { Principal } from '../domain/api-keys.ts';
import type { Plan } from '../domain/plans.ts';
import {
  assessWindow,
  cellOf,
  crossedLimit,
  type EnumerationGuardSettings,
  enumerationGuardOf,
  judgeSuspicion,
  visitsOf,
} from '../domain/stations/enumeration-guard.ts';
import type { GeoPoint } from '../geo/distance.ts';
import { ApiError } from '../platform/errors.ts';
import { logger } from '../platform/observability.ts';
import { formatTimestamp } from '../platform/time.ts';
import type { EnumerationWindowStore } from '../store/enumeration-windows.ts';

export interface EnumerationGuardDeps {
  windows: EnumerationWindowStore;
  plan: (name: string) => Promise<Plan | null>;
  now: () => number;
}

/**
 * The stored list is rewritten (pruned) only once it holds this many visits the window no longer
 * needs: pruning on every query would double the writes.
 */
const PRUNE_SLACK = 50;

/**
 * Records a station query's cells in the key's window and refuses it with 403
 * `enumeration_suspected` when the key is cooling down or the window now looks like a sweep far
 * from the fleet's vehicles. Runs after the chain's key, rate, scope and fleet checks, before any
 * station is looked up. Costs one atomic append (plus a read while cooling down, a prune now and
 * then); the fleet's positions are read only for a suspicious window not vetted recently. A
 * DynamoDB failure lets the query through: losing the guard for a moment beats failing paying
 * customers.
 */
export async function guardStationQuery(
  deps: EnumerationGuardDeps,
  principal: Principal,
  fleetId: string,
  points: readonly GeoPoint[],
): Promise<void> {
  let refused: ApiError | null;
  try {
    const settings = enumerationGuardOf((await deps.plan(principal.planName))?.enumerationGuard);
    // One window per key *and acting fleet*: a window is judged against that fleet's vehicles, so
    // a partner key serving fleets in ten regions must not have one fleet's cells count as far
    // from another's.
    refused = await judge(deps, `${principal.keyId}#${fleetId}`, fleetId, points, settings);
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
  points: readonly GeoPoint[],
  settings: EnumerationGuardSettings,
): Promise<ApiError | null> {
  const nowMs = deps.now();
  const appended = await deps.windows.append(
    windowId,
    visitsOf(points.map(cellOf), nowMs),
    nowMs,
    nowMs + settings.windowMinutes * 60_000,
  );
  const step = assessWindow(appended.window, nowMs, settings);
  if (step.kind === 'blocked') return refusal(step.blockedUntilMs, step.distinctCells, settings);
  if (appended.kind === 'appended' && appended.storedVisits - step.window.visits.length >= PRUNE_SLACK) {
    // Best effort: a concurrent append makes it fail, and a later query prunes instead.
    await deps.windows.prune(windowId, step.window.visits, appended.storedVisits);
  }
  if (step.kind === 'clear') return null;
  const verdict = judgeSuspicion(step, await deps.windows.fleetPositions(fleetId), nowMs, settings);
  if (verdict.kind === 'allow') {
    await deps.windows.markVetted(windowId, verdict.window.vettedUntilMs ?? nowMs);
    return null;
  }
  await deps.windows.block(windowId, verdict.blockedUntilMs);
  logger.warn('Station queries flagged as enumeration', { window: windowId, cells: verdict.distinctCells });
  return refusal(verdict.blockedUntilMs, verdict.distinctCells, settings);
}

function refusal(blockedUntilMs: number, distinctCells: number, settings: EnumerationGuardSettings) {
  const until = formatTimestamp(blockedUntilMs);
  return new ApiError(
    'enumeration_suspected',
    `This key's station queries covered ${distinctCells} distinct map cells in ${settings.windowMinutes} minutes, ` +
      `laid out like a sweep far from the fleet's vehicles; station queries are refused until ${until}.`,
    {
      hint: `reduce breadth and frequency of station queries; this key may query stations again at ${until}`,
      extensions: {
        limit: crossedLimit(distinctCells, settings),
        used: distinctCells,
        cool_down_until: until,
      },
    },
  );
}
