import { fuelingMatchedEvent, type MatchedFill } from '#shared/events/domain/event-payloads.ts';
import type { EventRecorder } from '#shared/events/usecases/event-recording.ts';
import { inFuelProgram } from '#shared/fuel-programs/domain/program.ts';
import type { FuelProgramSource } from '#shared/fuel-programs/usecases/fuel-programs.ts';
import type {
  RecommendedStopRecord,
  RecommendedStopStore,
} from '#shared/guidance/store/recommended-stops.ts';
import { formatTimestamp } from '#shared/kernel/time.ts';
import type { Fueling, StoredVerification } from '#shared/tracking/domain/fueling-record.ts';
import type { OutboxEvent } from '#shared/tracking/domain/outbox.ts';
import {
  basisOfFill,
  fillEffectivePrice,
  missedSavingsOf,
  pricedFill,
  recommendedEffectivePrice,
} from '../domain/fill-pricing.ts';
import {
  countsUnfollowed,
  type FillPlace,
  headingRecommendation,
  matchRecommendation,
  type RecommendationMatch,
  sameFillOf,
  unmatchedReason,
} from '../domain/matching.ts';
import { FUELING_POLICY } from '../domain/policy.ts';
import type { FuelingRef, FuelingStore, VehicleFillGuard } from '../store/fuelings.ts';

export interface FuelingRecordDeps {
  fuelings: Pick<
    FuelingStore,
    | 'record'
    | 'ofVehicleBetween'
    | 'recordedForCardRef'
    | 'announcementOf'
    | 'vehicleGuard'
    | 'get'
    | 'setVerification'
  >;
  recommendations: Pick<RecommendedStopStore, 'around' | 'get' | 'followWrite' | 'passOverWrite'>;
  events: Pick<EventRecorder, 'record'>;
  /** The fleet's card program, for a fill at a named station that does not say which side of it it is on. */
  fuelPrograms?: FuelProgramSource | undefined;
}

export type FillOutcome =
  | { status: 'recorded'; fueling: Fueling }
  /** The card reference (or, for a detection, the rise) was already on record under `id`. */
  | { status: 'duplicate'; id: string };

/** A lost race (a link, a follow or a card guard written meanwhile) re-reads and tries again. */
const MAX_ATTEMPTS = 6;

/** The fill's records kept changing under every attempt: transient, the caller may retry it. */
export class FillContention extends Error {
  constructor(
    readonly fuelingId: string,
    attempts: number,
  ) {
    super(`fueling ${fuelingId}: its records changed under ${attempts} attempts in a row`);
    this.name = 'FillContention';
  }
}

export const placeOf = (fueling: Fueling): FillPlace => ({
  vehicleId: fueling.vehicleId,
  fueledAtMs: Date.parse(fueling.fueledAt),
  stationId: fueling.stationId ?? fueling.station?.id ?? null,
  latitude: fueling.latitude ?? fueling.station?.latitude ?? null,
  longitude: fueling.longitude ?? fueling.station?.longitude ?? null,
});

/**
 * Records one fill, whichever source it comes from, in one transaction with what it changes:
 * - the same fill from the other source (same vehicle, within 0.5 mile and 60 minutes) is linked
 *   both ways, whichever arrived first; the reported record is the fill the report counts, the
 *   detection confirms its gallons;
 * - a reported fill at a recommendation in the match window (the station it names, else within 0.5 mile; shown
 *   at most 30 minutes after the fill, standing at some moment of the 6 hours before it) is
 *   matched, the stop marked followed and `fueling.matched` recorded; a detection arrives matched
 *   by the worker (against the stops it watched) and only marks its stop followed;
 * - every fill is priced on the fleet's basis against its counterfactual (fill-pricing.ts): the
 *   recommendation it followed, else the one it passed over, else its own price;
 * - a fill made elsewhere is judged against the stop the truck was heading to then
 *   (`headingRecommendation`): it carries that stop's counterfactual and its missed savings, and
 *   the stop is counted as advice not followed (once: marked on its record in the same
 *   transaction); an unmatched fill says why (`unmatchedReason`).
 * A card reference or a detection already on record is a duplicate, never a second record.
 */
export async function recordFill(
  deps: FuelingRecordDeps,
  fleetId: string,
  fill: Fueling,
  /** A detection's `fueling.matched`, built by the worker against the stops it watched. */
  detectedMatch: OutboxEvent | null = null,
): Promise<FillOutcome> {
  fill = await withProgramSide(deps, fleetId, fill);
  for (let attempt = 1; ; attempt++) {
    const place = placeOf(fill);
    const guard = await deps.fuelings.vehicleGuard(fleetId, fill.vehicleId);
    const nearby = await fillsAround(deps, fleetId, fill.vehicleId, place.fueledAtMs, guard);
    if (nearby.some((other) => other.id === fill.id)) return duplicateOf(deps, fleetId, fill, fill.source);
    const mergeWith =
      sameFillOf(
        place,
        nearby
          .filter((other) => other.source !== fill.source && !other.linkedFuelingId)
          .map((other) => ({ ...placeOf(other), fueling: other })),
      )?.fueling ?? null;

    const recommendations = await deps.recommendations.around(fleetId, fill.vehicleId, place.fueledAtMs);
    const { fueling, followed, unfollowed, handedTo, match } = judged(
      fill,
      place,
      mergeWith,
      recommendations,
    );
    // One announcement per fill, kept on its record: none when the other record of the same fill
    // was already matched (it announced, or will on its own retry). A report's is recorded here;
    // a detection's by the outbox, in its order after fueling.recorded (tracking-outbox.ts).
    // A detection's match is the worker's (its event), whether or not the stop's record is found.
    const announce = mergeWith?.stopId
      ? null
      : fill.source === 'detected' && fill.stopId
        ? detectedMatch
        : match && fuelingMatchedEvent(matchedFill(fueling, match));
    const outcome = await deps.fuelings.record(fleetId, {
      fueling,
      mergeWith,
      follow: followed
        ? deps.recommendations.followWrite(fleetId, followed, fueling.id, fueling.externalRef ?? null)
        : null,
      passOver: unfollowed
        ? deps.recommendations.passOverWrite(fleetId, unfollowed, fueling, fueling.externalRef ?? null)
        : null,
      handedTo,
      announce,
      guard,
    });
    if (outcome.recorded) {
      if (announce && fill.source === 'reported') await announceMatch(deps, fleetId, announce);
      return { status: 'recorded', fueling };
    }
    if (outcome.reason === 'already_recorded') return duplicateOf(deps, fleetId, fill, fill.source);
    if (outcome.reason === 'duplicate_card_ref' && fill.cardTransactionRef) {
      const holder = await deps.fuelings.recordedForCardRef(fleetId, fill.cardTransactionRef);
      if (holder) {
        return holder.fueledAt
          ? duplicateOf(deps, fleetId, { id: holder.id, fueledAt: holder.fueledAt }, 'reported')
          : { status: 'duplicate', id: holder.id };
      }
    }
    if (attempt >= MAX_ATTEMPTS) throw new FillContention(fill.id, attempt);
    // Fills of other vehicles share the day's report item: a jittered pause spreads the retries.
    await new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * 2 ** attempt));
  }
}

/**
 * Whether the fleet's card program accepts the fill's station, as the program stands when it is
 * recorded (the report's in/off program split keeps that, whatever the program becomes): a fill
 * that already says (a reported one judged with its purchase) keeps its side; one at no named
 * station, or under rule `none`, is on neither (null).
 */
async function withProgramSide(deps: FuelingRecordDeps, fleetId: string, fill: Fueling): Promise<Fueling> {
  if (fill.inFuelProgram !== undefined || !deps.fuelPrograms) return fill;
  const chain = fill.station?.chain;
  const side = chain ? inFuelProgram(await deps.fuelPrograms.get(fleetId), chain) : null;
  return { ...fill, inFuelProgram: side };
}

/**
 * The vehicle's fills within the merge window: gsi1 (eventually consistent), plus those of the
 * guard's last writes it does not show yet, read by key. The guard was read first and the fill's
 * transaction is conditional on it, so a fill written since is either here or refuses the write.
 */
async function fillsAround(
  deps: FuelingRecordDeps,
  fleetId: string,
  vehicleId: string,
  atMs: number,
  guard: VehicleFillGuard,
): Promise<Fueling[]> {
  const windowMs = FUELING_POLICY.mergeWindowMinutes * 60_000;
  const from = formatTimestamp(atMs - windowMs);
  const to = formatTimestamp(atMs + windowMs);
  const found = await deps.fuelings.ofVehicleBetween(fleetId, vehicleId, from, to);
  const unseen = guard.recent.filter(
    (ref) => ref.fueledAt >= from && ref.fueledAt <= to && !found.some((f) => f.id === ref.id),
  );
  for (const ref of unseen) {
    const fueling = await deps.fuelings.get(fleetId, ref);
    if (fueling) found.push(fueling);
  }
  return found;
}

const announceMatch = (deps: FuelingRecordDeps, fleetId: string, event: OutboxEvent) =>
  deps.events.record(fleetId, event.type, event.data, { dedupeKey: event.dedupeKey });

/**
 * A fill already on record: its `fueling.matched` (kept on the record by the transaction that
 * wrote it) is recorded again under the same dedupe key, so a retry after a crash or a failed
 * event write still announces it, and never twice.
 */
async function duplicateOf(
  deps: FuelingRecordDeps,
  fleetId: string,
  recorded: FuelingRef,
  source: Fueling['source'],
): Promise<FillOutcome> {
  // A detection's is the outbox's to announce again (it reads the record the same way).
  const pending = source === 'reported' ? await deps.fuelings.announcementOf(fleetId, recorded) : null;
  if (pending) await announceMatch(deps, fleetId, pending);
  return { status: 'duplicate', id: recorded.id };
}

/**
 * The record to write: linked, matched (or why not, and its missed savings), and the stop it
 * follows, if any. A detection comes matched by the worker (against the stops it watched); a
 * report is matched here, or takes the match of the detection it absorbs (the same fill, judged
 * at the pump by its breadcrumbs where the card's position is off).
 */
function judged(
  fill: Fueling,
  place: FillPlace,
  mergeWith: Fueling | null,
  recommendations: readonly RecommendedStopRecord[],
): {
  fueling: Fueling;
  followed: RecommendedStopRecord | null;
  unfollowed: RecommendedStopRecord | null;
  handedTo: Fueling | null;
  match: RecommendationMatch | null;
} {
  let fueling: Fueling = { ...fill, linkedFuelingId: mergeWith?.id ?? null };
  if (mergeWith && fill.source === 'reported') fueling.detectedGallons = mergeWith.gallons;

  const recordOf = (stopId: string | null | undefined) =>
    stopId ? (recommendations.find((r) => r.stopId === stopId) ?? null) : null;
  // A card that names another station than the one its detection matched was not fuelled there.
  const namesOther =
    fill.source === 'reported' &&
    fill.stationId !== null &&
    Boolean(mergeWith?.stopId) &&
    mergeWith?.stationId !== fill.stationId;
  let match: RecommendationMatch | null = null;
  if (fill.source === 'detected' && fill.stopId) {
    const stop = recordOf(fill.stopId);
    if (stop) match = { stop, distanceMiles: null };
  } else {
    match = matchRecommendation(place, recommendations);
    if (match) {
      const { stop } = match;
      fueling = {
        ...fueling,
        guidanceId: stop.guidanceId,
        stopId: stop.stopId,
        tripId: stop.tripId,
        tripStopId: stop.tripStopId,
        stationId: fueling.stationId ?? stop.stationId,
        recommendedNetPrice: stop.netPrice,
        // A detection the worker did not watch (shown longer ago than it keeps stops) is taken at
        // the stop's station and net price, as a detection at a watched stop is.
        ...(fill.source === 'detected' ? { stationId: stop.stationId, netPrice: stop.netPrice } : {}),
      };
    } else if (
      fill.source === 'reported' &&
      mergeWith?.source === 'detected' &&
      mergeWith.guidanceId &&
      mergeWith.stopId &&
      !namesOther
    ) {
      fueling = {
        ...fueling,
        guidanceId: mergeWith.guidanceId,
        stopId: mergeWith.stopId,
        tripId: mergeWith.tripId ?? null,
        tripStopId: mergeWith.tripStopId ?? null,
        stationId: fueling.stationId ?? mergeWith.stationId,
        recommendedNetPrice: mergeWith.recommendedNetPrice ?? null,
      };
    }
  }
  const followedRecord = fueling.stopId ? (match?.stop ?? recordOf(fueling.stopId)) : null;
  let unfollowed: RecommendedStopRecord | null = null;
  if (fueling.stopId) {
    fueling = pricedFill(fueling, followedRecord ? { stop: followedRecord, followed: true } : null);
    fueling.missedSavingsUsd = 0;
    fueling.unmatchedReason = null;
    fueling.passedOverStopId = null;
  } else {
    // One stop for the money and the count: the one the truck was heading to at the fill.
    const passed = headingRecommendation(place, recommendations);
    fueling = pricedFill(fueling, passed ? { stop: passed, followed: false } : null);
    fueling.missedSavingsUsd = passed ? missedSavingsOf(fueling, passed) : 0;
    fueling.passedOverStopId = passed?.stopId ?? null;
    // The same fill matched on its other record: it was not unmatched, nor made elsewhere.
    const matchedElsewhere = Boolean(mergeWith?.stopId) && !namesOther;
    fueling.unmatchedReason = matchedElsewhere ? null : unmatchedReason(place, recommendations);
    unfollowed = !matchedElsewhere && passed && countsUnfollowed(passed) ? passed : null;
  }
  // A matched detection joining an unmatched report hands it the match: the report is the record
  // counted, so it is priced again against the stop it followed (store: the merge's update).
  const handedTo =
    fill.source === 'detected' && fueling.stopId && mergeWith?.source === 'reported' && !mergeWith.stopId
      ? pricedFill(
          {
            ...mergeWith,
            guidanceId: fueling.guidanceId,
            stopId: fueling.stopId,
            tripId: fueling.tripId ?? null,
            tripStopId: fueling.tripStopId ?? null,
            recommendedNetPrice: fueling.recommendedNetPrice ?? null,
            stationId: mergeWith.stationId ?? fueling.stationId,
            missedSavingsUsd: 0,
            passedOverStopId: null,
            unmatchedReason: null,
          },
          followedRecord ? { stop: followedRecord, followed: true } : null,
        )
      : null;
  const stop = match?.stop as RecommendedStopRecord | undefined;
  const followed = stop && !stop.followedFuelingId ? stop : null;
  return { fueling, followed, unfollowed, handedTo, match };
}

function matchedFill(fueling: Fueling, match: RecommendationMatch): MatchedFill {
  const { stop } = match;
  const { stateTax, treatment } = basisOfFill(fueling);
  return {
    fuelingId: fueling.id,
    vehicleId: fueling.vehicleId,
    externalRef: fueling.externalRef ?? null,
    guidanceId: stop.guidanceId,
    tripId: stop.tripId,
    stopId: stop.stopId,
    tripStopId: stop.tripStopId,
    station: { id: stop.stationId, name: stop.stationName, state: stop.state ?? fueling.state ?? null },
    gallons: fueling.gallons,
    recommendedGallons: stop.gallonsToBuy,
    distanceMiles: match.distanceMiles,
    netPrice: fueling.netPrice ?? null,
    recommendedNetPrice: stop.netPrice,
    // On the fill's basis, as its record prices it (the recommendation's price restated on it).
    stateTax,
    taxTreatment: treatment,
    effectivePrice: fillEffectivePrice(fueling),
    recommendedEffectivePrice: recommendedEffectivePrice(stop, treatment),
  };
}

/** The worker's outbox: a detected fill, recorded once (its id is fixed by the rise). */
export function detectedFuelingRecorder(deps: FuelingRecordDeps) {
  return {
    async recordDetected(fleetId: string, fueling: Fueling, matched: OutboxEvent | null = null) {
      return recordFill(deps, fleetId, fueling, matched);
    },
    /** The fueling.matched the detection's record holds: none when it joined a matched report. */
    announcementOf: (fleetId: string, fueling: FuelingRef) => deps.fuelings.announcementOf(fleetId, fueling),
    /** A reported purchase's verdict after late breadcrumbs re-checked it. */
    recordVerification: (fleetId: string, fueling: FuelingRef, verification: StoredVerification) =>
      deps.fuelings.setVerification(fleetId, fueling, verification),
  };
}
