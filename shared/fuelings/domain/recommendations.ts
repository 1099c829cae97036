import type { FuelTaxTreatment } from '#shared/fuel-tax/domain/treatment.ts';
import type { GuidanceSession, GuidanceStop } from '#shared/guidance/domain/session.ts';
import { FUELING_POLICY } from './policy.ts';

/**
 * A recommended stop on the fleet's record, kept beyond the session that made it: the session
 * holds only its current stops, while matching a fueling and the report's adherence need every
 * stop that was ever recommended, and when it stood.
 */
export interface RecommendedStop {
  vehicleId: string;
  guidanceId: string;
  tripId: string | null;
  /** The guidance stop (`gds_`). */
  stopId: string;
  /** The trip fuel stop (`tsp_`) it carries out, when the session follows a trip. */
  tripStopId: string | null;
  stationId: string;
  stationName: string;
  latitude: number;
  longitude: number;
  netPrice: number;
  gallonsToBuy: number | null;
  recommendedAtMs: number;
  /**
   * Its place in the plan when it was shown: 0 for the stop the driver was heading to. A fill
   * elsewhere while the first stop stood passed that advice over (adherence counts it).
   */
  sequence?: number;
  /**
   * When it became the stop the truck was heading to (the first standing stop of its session), on
   * event time: when shown first, or when the stops before it left the plan; the earliest is kept.
   * Absent while it never was (and on a record without it: `sequence` 0 reads as heading).
   */
  headingSinceMs?: number;
  // The price basis the stop was shown on (GuidanceStop): absent on a record without one,
  // which reads as pump prices with the stop's own price as their counterfactual.
  /** The posted (pump) price. */
  price?: number;
  state?: string;
  stateTax?: number | null;
  taxTreatment?: FuelTaxTreatment;
  effectivePrice?: number;
  /** What the fleet would have paid for this purchase without the advice (design in fill-pricing.ts). */
  counterfactual?: { pumpPrice: number; netPrice: number; stationCount: number } | null;
  /** When the stop left the plan (passed, replaced, skipped, or its session ended); null while it stands. */
  withdrawnAtMs: number | null;
  /** Whether the stop was due when withdrawn: the truck was within the approach radius of it. */
  due: boolean;
  followedFuelingId: string | null;
}

/** What a change of a session's stops adds to the record. */
export type RecommendationChange =
  | { kind: 'recommended'; stop: RecommendedStop }
  | { kind: 'withdrawn'; vehicleId: string; stopId: string; withdrawnAtMs: number; due: boolean };

const standingStops = (session: GuidanceSession | null | undefined): readonly GuidanceStop[] =>
  session?.status === 'active' ? session.stops : [];

/**
 * The stops a change of the vehicle's session recommended and withdrew (by stop id, which is
 * stable by station within a session), and those it dated earlier (stop-dates.ts). A stop withdrawn while the truck was at most the approach
 * radius from it was due: it passed the stop, stopped there, or the session ended beside it; one
 * replaced while still far ahead was a plan that changed, not advice the driver could follow.
 */
export function recommendationChanges(
  before: GuidanceSession | null | undefined,
  after: GuidanceSession | null | undefined,
  nowMs: number,
): RecommendationChange[] {
  const was = standingStops(before);
  const now = standingStops(after);
  const changes: RecommendationChange[] = [];
  const nowIds = new Set(now.map((s) => s.id));
  const wasDates = new Map(was.map((s) => [s.id, s.recommendedAtMs]));
  const wasHeading = was[0]?.id;
  for (const stop of was) {
    if (nowIds.has(stop.id)) continue;
    changes.push({
      kind: 'withdrawn',
      vehicleId: (before as GuidanceSession).vehicleId,
      stopId: stop.id,
      withdrawnAtMs: nowMs,
      due: stop.milesAhead <= FUELING_POLICY.dueWithinMiles,
    });
  }
  for (const [index, stop] of now.entries()) {
    // New, or dated earlier (a start plan's stop re-dated by the day replayed): the record takes it.
    // A stop shown before that is now first became the stop the truck is heading to: so does its record.
    const wasDate = wasDates.get(stop.id);
    const becameHeading = wasDate !== undefined && index === 0 && wasHeading !== stop.id;
    if (wasDate !== undefined && stop.recommendedAtMs >= wasDate && !becameHeading) continue;
    const session = after as GuidanceSession;
    changes.push({
      kind: 'recommended',
      stop: recommendedStopOf(session, stop, becameHeading ? nowMs : undefined),
    });
  }
  return changes;
}

/**
 * The recommendation changes of a cycle's steps as the record must end up: the outbox records
 * every recommendation before any withdrawal, so a stop withdrawn and recommended again within the
 * cycle keeps only its last recommendation, and one recommended and withdrawn keeps both.
 */
export function netRecommendationChanges(changes: readonly RecommendationChange[]): RecommendationChange[] {
  const idOf = (change: RecommendationChange) =>
    change.kind === 'recommended' ? change.stop.stopId : change.stopId;
  const lastIndex = new Map<string, number>();
  const lastRecommended = new Map<string, number>();
  changes.forEach((change, i) => {
    lastIndex.set(idOf(change), i);
    if (change.kind === 'recommended') lastRecommended.set(idOf(change), i);
  });
  // The stop the truck was heading to keeps when it first became so within the cycle.
  const firstHeading = new Map<string, number>();
  for (const change of changes) {
    const since = change.kind === 'recommended' ? change.stop.headingSinceMs : undefined;
    if (since === undefined) continue;
    const id = idOf(change);
    firstHeading.set(id, Math.min(since, firstHeading.get(id) ?? Infinity));
  }
  return changes.flatMap((change, i): RecommendationChange[] => {
    const id = idOf(change);
    if (change.kind !== 'recommended') return lastIndex.get(id) === i ? [change] : [];
    if (lastRecommended.get(id) !== i) return [];
    const headingSinceMs = firstHeading.get(id);
    return [headingSinceMs === undefined ? change : { ...change, stop: { ...change.stop, headingSinceMs } }];
  });
}

/**
 * The record of a stop of the session; the first stop is the one the truck is heading to, since
 * `headingSinceMs` when it became first after being shown, else since it was shown.
 */
export function recommendedStopOf(
  session: GuidanceSession,
  stop: GuidanceStop,
  headingSinceMs?: number,
): RecommendedStop {
  const sequence = Math.max(
    0,
    session.stops.findIndex((shown) => shown.id === stop.id),
  );
  return {
    vehicleId: session.vehicleId,
    guidanceId: session.id,
    tripId: session.tripId ?? null,
    stopId: stop.id,
    tripStopId: stop.tripStopId ?? null,
    stationId: stop.stationId,
    stationName: stop.name,
    latitude: stop.latitude,
    longitude: stop.longitude,
    netPrice: stop.netPrice,
    gallonsToBuy: stop.gallonsToBuy,
    recommendedAtMs: stop.recommendedAtMs,
    sequence,
    ...(sequence === 0 ? { headingSinceMs: headingSinceMs ?? stop.recommendedAtMs } : {}),
    price: stop.price,
    ...basisOf(stop),
    withdrawnAtMs: null,
    due: false,
    followedFuelingId: null,
  };
}

/** The stop's price basis, when it was shown with one (every stop since the fuel-tax basis). */
function basisOf(stop: GuidanceStop): Partial<RecommendedStop> {
  if (stop.taxTreatment === undefined || stop.effectivePrice === undefined) return {};
  return {
    state: stop.state,
    stateTax: stop.stateTax ?? null,
    taxTreatment: stop.taxTreatment,
    effectivePrice: stop.effectivePrice,
    counterfactual: stop.counterfactual ?? null,
  };
}
