import type { Principal } from '../domain/api-keys.ts';
import type { Plan } from '../domain/plans.ts';
import {
  cellOf,
  crossedLimit,
  type EnumerationGuardSettings,
  enumerationGuardOf,
  judgeSuspicion,
  recordQuery,
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

/** Two queries of one key racing: the loser re-reads; past this it answers unguarded (fails open). */
const MAX_ATTEMPTS = 3;

/**
 * Records a station query's cells in the key's window and refuses it with 403
 * `enumeration_suspected` when the key is cooling down or the window now looks like a sweep far
 * from the fleet's vehicles. Runs after the chain's key, rate, scope and fleet checks, before any
 * station is looked up. Costs a read and a conditional write; the fleet's positions are read only
 * for a suspicious window. A DynamoDB failure lets the query through: losing the guard for a
 * moment beats failing paying customers.
 */
export async function guardStationQuery(
  deps: EnumerationGuardDeps,
  principal: Principal,
  fleetId: string,
  points: readonly GeoPoint[],
): Promise<void> {
  const settings = enumerationGuardOf((await deps.plan(principal.planName))?.enumerationGuard);
  const cells = points.map(cellOf);
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt += 1) {
    let refusal: ApiError | null;
    try {
      refusal = await attemptGuard(deps, principal.keyId, fleetId, cells, settings);
    } catch (error) {
      logger.warn('Enumeration guard unavailable; station query not guarded', { error });
      return;
    }
    if (refusal === null) return;
    if (refusal !== RETRY) throw refusal;
  }
  logger.warn('Enumeration window kept changing under us; station query not guarded', {
    keyId: principal.keyId,
  });
}

const RETRY = new ApiError('enumeration_suspected', 'retry');

/** null: answer the query; RETRY: the window changed since read; else the refusal to throw. */
async function attemptGuard(
  deps: EnumerationGuardDeps,
  keyId: string,
  fleetId: string,
  cells: string[],
  settings: EnumerationGuardSettings,
): Promise<ApiError | null> {
  const nowMs = deps.now();
  const { window, version } = await deps.windows.read(keyId);
  const step = recordQuery(window, cells, nowMs, settings);
  if (step.kind === 'blocked') return refusal(step.blockedUntilMs, step.distinctCells, settings);
  const verdict =
    step.kind === 'clear'
      ? { kind: 'allow' as const, window: step.window }
      : judgeSuspicion(step, await deps.windows.fleetPositions(fleetId), nowMs, settings);
  // The item outlives whichever ends later: the window or the cool-down.
  const expiresAtMs = Math.max(nowMs + settings.windowMinutes * 60_000, verdict.window.blockedUntilMs ?? 0);
  if (!(await deps.windows.write(keyId, verdict.window, version, expiresAtMs))) return RETRY;
  if (verdict.kind === 'allow') return null;
  logger.warn('Station queries flagged as enumeration', { keyId, fleetId, cells: verdict.distinctCells });
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
