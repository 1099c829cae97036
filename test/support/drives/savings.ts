/**
 * The saving of every card purchase of the simulated fleet (harness.ts), computed from the drives
 * alone by the published methodology (docs/fuel-economics.md), and what the savings report says
 * set against it: the `savings_report_attribution_errors` figure of `npm run bench`.
 *
 * Nothing here calls the report's code: a fill is judged against what GET guidance showed the
 * truck (every stop of the session after each delivery, with the prices published for it), the
 * fill's own price, discount and state tax, and the counterfactual the stop carried when first shown.
 */

import { SHIPPED_FUEL_TAX_TABLE } from '#shared/fuel-tax/domain/state-diesel-tax.ts';
import { FUELING_POLICY } from '#shared/fuelings/domain/policy.ts';
import type { CardPurchase, DriveOutcome, PricedStop } from './harness.ts';

/** How a fill stands to the advice: at a stop shown, elsewhere while one stood, or with none standing. */
export type FillJudgement = 'followed' | 'passed_over' | 'no_recommendation';

/** One fill's money, integer cents (rounded per fill, as the report rounds it). */
export interface FillCents {
  savings: number;
  card: number;
  routing: number;
  missed: number;
}

export interface JudgedFill {
  drive: number;
  vehicleId: string;
  purchase: CardPurchase;
  judgement: FillJudgement;
  /** The recommendation the fill followed or passed over, as first shown. */
  stop: PricedStop | null;
  /** pump − discount − the state tax credited back (IFTA, the fleets' default treatment). */
  effectivePrice: number;
  cents: FillCents;
}

const round3 = (value: number) => Math.round(value * 1000) / 1000;
const cents = (usd: number) => Math.round(usd * 100);
const MINUTE_MS = 60_000;

/**
 * When each stop stood: from the view that first showed it until the first view without it. Views
 * are dated by event time: the newest breadcrumb the plan shown had seen.
 */
interface Standing {
  stop: PricedStop;
  fromMs: number;
  untilMs: number;
}

/** The views of the drive: POST guidance's answer, then what GET guidance showed after each delivery. */
const viewsOf = (outcome: DriveOutcome) => [
  { atMs: outcome.startMs, stops: outcome.stopsAtStart },
  ...outcome.sightings.map((s) => ({
    atMs: Math.max(outcome.startMs, s.latest.recordedAtMs),
    stops: s.active ? s.stops : [],
  })),
];

/**
 * The stops the truck was shown and when each stood. A stop keeps the prices of its first showing
 * (the report keeps the recommendation's counterfactual from then).
 */
function standings(outcome: DriveOutcome): Standing[] {
  const firstShown = new Map<string, PricedStop>();
  const open = new Map<string, Standing>();
  const closed: Standing[] = [];
  for (const view of viewsOf(outcome)) {
    const ids = new Set(view.stops.map((stop) => stop.id));
    for (const [id, standing] of open) {
      if (ids.has(id)) continue;
      closed.push({ ...standing, untilMs: view.atMs });
      open.delete(id);
    }
    for (const stop of view.stops) {
      if (!firstShown.has(stop.id)) firstShown.set(stop.id, stop);
      if (!open.has(stop.id)) {
        open.set(stop.id, {
          stop: firstShown.get(stop.id) as PricedStop,
          fromMs: view.atMs,
          untilMs: Infinity,
        });
      }
    }
  }
  return [...closed, ...open.values()];
}

/** When each stop first was the one the truck was heading to: the first stop of a view. */
function headingTimes(outcome: DriveOutcome): Map<string, number> {
  const since = new Map<string, number>();
  for (const view of viewsOf(outcome)) {
    const [first] = view.stops;
    if (first && !since.has(first.id)) since.set(first.id, view.atMs);
  }
  return since;
}

/** The price a stop published on the fill's basis; a stop without the field is on pump prices. */
const stopEffective = (stop: PricedStop) => stop.effectivePrice ?? stop.netPrice;

/**
 * The stop's counterfactual; none published with a price basis means no station but the stop was
 * in reach. A stop shown without a price basis has none: the fill falls back to its own price.
 */
function counterfactualOf(stop: PricedStop) {
  if (stop.effectivePrice === null) return null;
  return (
    stop.counterfactual ?? {
      pumpPrice: round3(stop.price - (stop.stateTax ?? 0)),
      netPrice: stop.effectivePrice,
    }
  );
}

/**
 * Judges one card purchase, by the methodology:
 * - followed: a stop at the purchase's station that stood at some moment of the match window
 *   before the fill (shown at most the early minutes after it): its counterfactual, no missed saving;
 * - passed over: else, the stop the truck was heading to at the fill: of the stops standing then
 *   (or withdrawn at most the grace before), the one that was last to become the first of the plan by
 *   the fill's time (else one that became first within the early minutes after it): its
 *   counterfactual, and what buying there would have saved. None when only stops further on stood;
 * - no recommendation: the station is its own counterfactual (saving 0, card = discount × gallons).
 * The saving is the routing part: (counterfactual net − effective) × gallons; the card's worth beside it.
 */
export function judgeFill(outcome: DriveOutcome, purchase: CardPurchase): JudgedFill {
  const atMs = purchase.fueledAtMs;
  const shownBy = (s: Standing) => s.fromMs <= atMs + FUELING_POLICY.matchEarlyMinutes * MINUTE_MS;
  const all = standings(outcome);
  const followed = all
    .filter(
      (s) =>
        s.stop.stationId === purchase.stationId &&
        shownBy(s) &&
        s.untilMs >= atMs - FUELING_POLICY.matchWindowHours * 60 * MINUTE_MS,
    )
    .sort((a, b) => b.fromMs - a.fromMs)[0];
  const passed = followed ? undefined : headingAt(outcome, all, atMs);
  const tax = SHIPPED_FUEL_TAX_TABLE.rateOf(purchase.state, atMs) ?? 0;
  const net = round3(purchase.price - purchase.discount);
  const effective = round3(net - tax);
  const g = purchase.gallons;
  const stop = (followed ?? passed)?.stop ?? null;
  const cf = (stop && counterfactualOf(stop)) ?? {
    pumpPrice: round3(purchase.price - tax),
    netPrice: effective,
  };
  return {
    drive: outcome.spec.index,
    vehicleId: outcome.vehicleId,
    purchase,
    judgement: followed ? 'followed' : passed ? 'passed_over' : 'no_recommendation',
    stop,
    effectivePrice: effective,
    cents: {
      // The saving is the decision's (where to buy); the card's worth is beside it, not in it.
      savings: cents((cf.netPrice - effective) * g),
      card: cents((cf.pumpPrice - cf.netPrice) * g),
      routing: cents((cf.netPrice - effective) * g),
      missed: passed ? cents(Math.max(0, effective - stopEffective(passed.stop)) * g) : 0,
    },
  };
}

/** The stop the truck was heading to at `atMs`, as the views showed it (judgeFill). */
function headingAt(outcome: DriveOutcome, all: readonly Standing[], atMs: number): Standing | undefined {
  const since = headingTimes(outcome);
  const earlyMs = FUELING_POLICY.matchEarlyMinutes * MINUTE_MS;
  const standing = all.flatMap((s) => {
    const from = since.get(s.stop.id);
    const stands =
      s.fromMs <= atMs + earlyMs && s.untilMs + FUELING_POLICY.passedOverGraceMinutes * MINUTE_MS >= atMs;
    return from !== undefined && stands && from <= atMs + earlyMs ? [{ s, from }] : [];
  });
  const before = standing.filter((c) => c.from <= atMs).sort((a, b) => b.from - a.from)[0];
  const soonAfter = standing.filter((c) => c.from > atMs).sort((a, b) => a.from - b.from)[0];
  return (before ?? soonAfter)?.s;
}

/** The report's money fields of a vehicle row or of the totals (absent before the split existed). */
export interface ReportedSavings {
  savings_usd: number;
  card_savings_usd?: number;
  routing_savings_usd?: number;
  missed_savings_usd: number;
  gallons: number;
}

export interface AttributionCheck {
  /** Vehicle rows and fleet totals whose money differs from the independent sum by more than a cent a fill. */
  splitErrors: {
    fleetId: string;
    vehicleId: string | null;
    field: keyof FillCents;
    reported: number | null;
    expected: number;
  }[];
  /**
   * Fills made elsewhere while a stop stood, at a price no lower than the stop's, whose reported
   * saving per gallon exceeds what a follower of that stop shows (the stop's
   * counterfactual less its published price).
   */
  rankingErrors: {
    fleetId: string;
    vehicleId: string;
    reportedPerGallon: number;
    followerPerGallon: number;
  }[];
  /**
   * Fills elsewhere that paid less than the stop passed over: they rightly show more routing
   * saving than its followers (the advice was beaten, not misattributed), so they are not errors.
   */
  cheaperElsewhere: number;
}

const FIELDS: Record<keyof FillCents, keyof ReportedSavings> = {
  savings: 'savings_usd',
  card: 'card_savings_usd',
  routing: 'routing_savings_usd',
  missed: 'missed_savings_usd',
};

const sumCents = (fills: readonly JudgedFill[]): FillCents =>
  fills.reduce(
    (sum, f) => ({
      savings: sum.savings + f.cents.savings,
      card: sum.card + f.cents.card,
      routing: sum.routing + f.cents.routing,
      missed: sum.missed + f.cents.missed,
    }),
    { savings: 0, card: 0, routing: 0, missed: 0 },
  );

/**
 * Sets one fleet's report against its judged fills: each vehicle row and the totals, field by
 * field, within a cent per fill; and each fill that passed over a stop against a follower of it.
 */
export function checkAttribution(
  fleetId: string,
  fills: readonly JudgedFill[],
  report: { totals: ReportedSavings; vehicles: (ReportedSavings & { vehicle_id: string })[] },
): AttributionCheck {
  const check: AttributionCheck = { splitErrors: [], rankingErrors: [], cheaperElsewhere: 0 };
  const compare = (
    vehicleId: string | null,
    judged: readonly JudgedFill[],
    row: ReportedSavings | undefined,
  ) => {
    const expected = sumCents(judged);
    for (const field of Object.keys(FIELDS) as (keyof FillCents)[]) {
      const value = row?.[FIELDS[field]];
      const reported = typeof value === 'number' ? cents(value) : null;
      if (reported === null || Math.abs(reported - expected[field]) > Math.max(judged.length, 1)) {
        check.splitErrors.push({ fleetId, vehicleId, field, reported, expected: expected[field] });
      }
    }
  };
  const byVehicle = new Map<string, JudgedFill[]>();
  for (const fill of fills) byVehicle.set(fill.vehicleId, [...(byVehicle.get(fill.vehicleId) ?? []), fill]);
  for (const [vehicleId, judged] of byVehicle) {
    compare(
      vehicleId,
      judged,
      report.vehicles.find((row) => row.vehicle_id === vehicleId),
    );
    // One fill a truck in these drives: the row's routing per gallon is that fill's.
    const [fill] = judged;
    const row = report.vehicles.find((r) => r.vehicle_id === vehicleId);
    if (judged.length !== 1 || !fill || fill.judgement !== 'passed_over' || !fill.stop || !row) continue;
    if (fill.effectivePrice < stopEffective(fill.stop)) {
      check.cheaperElsewhere++;
      continue;
    }
    const reportedPerGallon = row.savings_usd / fill.purchase.gallons;
    const cf = counterfactualOf(fill.stop);
    if (!cf) continue;
    const followerPerGallon = cf.netPrice - stopEffective(fill.stop);
    // A cent of rounding over the fill's gallons.
    if (reportedPerGallon > followerPerGallon + 0.01 / fill.purchase.gallons + 1e-9) {
      check.rankingErrors.push({ fleetId, vehicleId, reportedPerGallon, followerPerGallon });
    }
  }
  // A truck with no card purchase saved nothing the report may show.
  for (const row of report.vehicles) if (!byVehicle.has(row.vehicle_id)) compare(row.vehicle_id, [], row);
  compare(null, fills, report.totals);
  return check;
}

/** Every card purchase of the drives, judged. */
export function judgeFills(outcomes: readonly DriveOutcome[]): JudgedFill[] {
  return outcomes.flatMap((outcome) => outcome.purchases.map((purchase) => judgeFill(outcome, purchase)));
}
