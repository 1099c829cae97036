import { roundToHundredth } from '#shared/kernel/rounding.ts';
import type { Fueling } from '#shared/tracking/domain/fueling-record.ts';
import { basisOfFill, fillMoney } from './fill-pricing.ts';
import { UNMATCHED_REASONS, type UnmatchedReason } from './match-window.ts';
import type { VerificationStatus } from './verification.ts';

/**
 * A vehicle's savings figures, in integer units so rows add up exactly and totals are the sum of
 * the vehicle rows to the cent: gallons in thousandths, dollars in cents.
 *
 * Stored per contribution in day elements (shared/reports/store/savings-days.ts), whose missing numbers
 * read 0: every figure is one whose 0 is right for a fill recorded before the counterfactual — the
 * tax credited rather than the effective spend (such a fill was priced at the pump: its effective
 * spend is its spend), the saving rather than the counterfactual spend (none claimed), and the
 * gallons that have a counterfactual as the saving's denominator (such a fill is not in it).
 */
export interface SavingsFigures {
  fuelings: number;
  milliGallons: number;
  /** Gallons of fills whose price paid is known. */
  pricedMilliGallons: number;
  spendCents: number;
  /** Kept in its place in the day element (a shorter element lacks the counterfactual); not published. */
  benchmarkCents: number;
  missedCents: number;
  recommendedStops: number;
  followedStops: number;
  /** State tax credited back on the IFTA return: spend − effective spend. */
  creditedTaxCents: number;
  /** What the fleet's card is worth on the corridor: beside the saving, never in it. */
  cardCents: number;
  /** The saving of the decision: counterfactual (net) spend − effective spend. */
  routingCents: number;
  /** Gallons of fills priced against a counterfactual: the denominator of savings per gallon. */
  counterfactualMilliGallons: number;
  /** Priced fills on each basis: the report says `ifta`, `pump` or `mixed`. */
  iftaFuelings: number;
  pumpFuelings: number;
  /** Fills judged against no recommendation at all, by why (UNMATCHED_REASONS). */
  noGuidanceFuelings: number;
  outsideWindowFuelings: number;
  noPositionFuelings: number;
  notAtRecommendedStationFuelings: number;
  noStopDueFuelings: number;
  /**
   * Fills at a station the fleet's card program accepted, and at one it did not, as the program
   * stood when each was recorded (`Fueling.inFuelProgram`); the rest are unknown (no station, or no
   * rule): the totals less these two, so an element without them reads as unknown.
   */
  inProgramFuelings: number;
  inProgramMilliGallons: number;
  inProgramSpendCents: number;
  offProgramFuelings: number;
  offProgramMilliGallons: number;
  offProgramSpendCents: number;
  /**
   * Reported purchases, and their verdicts against the truck's own data; a reported purchase
   * without a verdict (recorded before verification) is the difference.
   */
  reportedFuelings: number;
  verifiedFuelings: number;
  unverifiedFuelings: number;
  flaggedFuelings: number;
}

export const NO_FIGURES: SavingsFigures = {
  fuelings: 0,
  milliGallons: 0,
  pricedMilliGallons: 0,
  spendCents: 0,
  benchmarkCents: 0,
  missedCents: 0,
  recommendedStops: 0,
  followedStops: 0,
  creditedTaxCents: 0,
  cardCents: 0,
  routingCents: 0,
  counterfactualMilliGallons: 0,
  iftaFuelings: 0,
  pumpFuelings: 0,
  noGuidanceFuelings: 0,
  outsideWindowFuelings: 0,
  noPositionFuelings: 0,
  notAtRecommendedStationFuelings: 0,
  noStopDueFuelings: 0,
  inProgramFuelings: 0,
  inProgramMilliGallons: 0,
  inProgramSpendCents: 0,
  offProgramFuelings: 0,
  offProgramMilliGallons: 0,
  offProgramSpendCents: 0,
  reportedFuelings: 0,
  verifiedFuelings: 0,
  unverifiedFuelings: 0,
  flaggedFuelings: 0,
};

const FIGURE_KEYS = Object.keys(NO_FIGURES) as (keyof SavingsFigures)[];

export function addFigures(a: SavingsFigures, b: SavingsFigures): SavingsFigures {
  const sum = { ...a };
  for (const key of FIGURE_KEYS) sum[key] = a[key] + b[key];
  return sum;
}

export function subtractFigures(a: SavingsFigures, b: SavingsFigures): SavingsFigures {
  const difference = { ...a };
  for (const key of FIGURE_KEYS) difference[key] = a[key] - b[key];
  return difference;
}

const cents = (usd: number) => Math.round(usd * 100);

/** A detection merged into a reported fueling is the same fill: the report counts the reported one. */
export const isMergedDetection = (fueling: Pick<Fueling, 'source' | 'linkedFuelingId'>) =>
  fueling.source === 'detected' && Boolean(fueling.linkedFuelingId);

const REASON_FIGURE: Record<UnmatchedReason, keyof SavingsFigures> = {
  no_guidance: 'noGuidanceFuelings',
  outside_window: 'outsideWindowFuelings',
  no_position: 'noPositionFuelings',
  not_at_recommended_station: 'notAtRecommendedStationFuelings',
  no_stop_due: 'noStopDueFuelings',
};

/**
 * What one fueling contributes to its vehicle's report on the day it was made. A record written
 * before the counterfactual (none on the record) contributes what its day element holds:
 * its spend and gallons, no credited tax, card, saving or counterfactual gallons — so taking it
 * back out (a merge) leaves its day as if it had never been counted.
 */
export function fuelingFigures(fueling: Fueling): SavingsFigures {
  if (isMergedDetection(fueling)) return NO_FIGURES;
  const gallons = fueling.gallons ?? 0;
  const money = fillMoney(fueling);
  const judgedByCounterfactual = money !== null && fueling.counterfactual != null;
  const figures: SavingsFigures = {
    ...NO_FIGURES,
    fuelings: 1,
    milliGallons: Math.round(gallons * 1000),
    pricedMilliGallons: money ? Math.round(gallons * 1000) : 0,
    spendCents: money?.spendCents ?? 0,
    missedCents: cents(fueling.missedSavingsUsd ?? 0),
  };
  if (money && judgedByCounterfactual) {
    figures.creditedTaxCents = money.spendCents - money.effectiveSpendCents;
    figures.cardCents = money.cardCents;
    figures.routingCents = money.routingCents;
    figures.counterfactualMilliGallons = Math.round(gallons * 1000);
  }
  if (money) figures[basisOfFill(fueling).treatment === 'ifta' ? 'iftaFuelings' : 'pumpFuelings'] = 1;
  const judged = Boolean(fueling.stopId) || Boolean(fueling.passedOverStopId);
  if (!judged && fueling.unmatchedReason) figures[REASON_FIGURE[fueling.unmatchedReason]] = 1;
  if (fueling.inFuelProgram != null) {
    const side = fueling.inFuelProgram ? 'inProgram' : 'offProgram';
    figures[`${side}Fuelings`] = 1;
    figures[`${side}MilliGallons`] = figures.milliGallons;
    figures[`${side}SpendCents`] = figures.spendCents;
  }
  if (fueling.source === 'reported') {
    figures.reportedFuelings = 1;
    const status = fueling.verification?.status;
    if (status) figures[VERDICT_FIGURE[status]] = 1;
  }
  return figures;
}

const VERDICT_FIGURE: Record<VerificationStatus, keyof SavingsFigures> = {
  verified: 'verifiedFuelings',
  unverified: 'unverifiedFuelings',
  flagged: 'flaggedFuelings',
};

/**
 * What a purchase's new verdict changes in its day (late breadcrumbs re-checked it): the figures
 * it has now less those it was counted with.
 */
export function verdictChangeFigures(before: Fueling, after: Fueling): SavingsFigures {
  return subtractFigures(fuelingFigures(after), fuelingFigures(before));
}

/** One side of the fuel card program in the report: fills, gallons and their pump spend. */
export interface ProgramSpend {
  fills: number;
  gallons: number;
  spend_usd: number;
}

/** The report's `fuel_program` section, less the rule (the program in force, read by the use case). */
export interface PublishedProgramSpend {
  in_program: ProgramSpend;
  off_program: ProgramSpend;
  unknown: ProgramSpend;
}

/**
 * Thousandths of a gallon split into hundredths that add up to the rounded total exactly (the
 * report's `totals.gallons`): each part floored, the hundredths left over going to the parts with
 * the largest remainders (a part of 0 never gets one). Rounding each part alone can miss the total
 * by a hundredth (1.005 + 1.005 gal: 1.01 + 1.01 against 2.01).
 */
function hundredthsAddingUp(milliGallons: readonly number[]): number[] {
  const total = Math.round(milliGallons.reduce((a, b) => a + b, 0) / 10);
  const parts = milliGallons.map((milli) => Math.floor(milli / 10));
  const order = milliGallons
    .map((milli, index) => ({ index, remainder: milli - (parts[index] as number) * 10 }))
    .sort((a, b) => b.remainder - a.remainder || a.index - b.index);
  let left = total - parts.reduce((a, b) => a + b, 0);
  for (const { index, remainder } of order) {
    if (left <= 0 || remainder <= 0) break;
    parts[index] = (parts[index] as number) + 1;
    left -= 1;
  }
  return parts;
}

/**
 * In and off the program as recorded; unknown is what is left of the totals. The three sides add up
 * to the totals exactly: fills and cents are whole, gallons split by hundredthsAddingUp.
 */
export function publishProgramSpend(figures: SavingsFigures): PublishedProgramSpend {
  const unknownMilliGallons =
    figures.milliGallons - figures.inProgramMilliGallons - figures.offProgramMilliGallons;
  const [inHundredths, offHundredths, unknownHundredths] = hundredthsAddingUp([
    figures.inProgramMilliGallons,
    figures.offProgramMilliGallons,
    unknownMilliGallons,
  ]) as [number, number, number];
  return {
    in_program: {
      fills: figures.inProgramFuelings,
      gallons: inHundredths / 100,
      spend_usd: figures.inProgramSpendCents / 100,
    },
    off_program: {
      fills: figures.offProgramFuelings,
      gallons: offHundredths / 100,
      spend_usd: figures.offProgramSpendCents / 100,
    },
    unknown: {
      fills: figures.fuelings - figures.inProgramFuelings - figures.offProgramFuelings,
      gallons: unknownHundredths / 100,
      spend_usd: (figures.spendCents - figures.inProgramSpendCents - figures.offProgramSpendCents) / 100,
    },
  };
}

/** The counts of the report's `verification` section (the exceptions are listed by the use case). */
export interface VerificationCounts {
  verified: number;
  unverified: number;
  flagged: number;
  not_checked: number;
}

export function verificationCounts(figures: SavingsFigures): VerificationCounts {
  const { reportedFuelings, verifiedFuelings, unverifiedFuelings, flaggedFuelings } = figures;
  return {
    verified: verifiedFuelings,
    unverified: unverifiedFuelings,
    flagged: flaggedFuelings,
    not_checked: Math.max(0, reportedFuelings - verifiedFuelings - unverifiedFuelings - flaggedFuelings),
  };
}

/** The report's figures of one vehicle or of the fleet, as published. */
export interface PublishedFigures {
  fuelings: number;
  gallons: number;
  spend_usd: number;
  effective_spend_usd: number;
  counterfactual_spend_usd: number;
  /** v1's name of counterfactual_spend_usd, kept for its clients. */
  benchmark_spend_usd: number;
  card_savings_usd: number;
  routing_savings_usd: number;
  savings_usd: number;
  savings_usd_per_gallon: number | null;
  missed_savings_usd: number;
  recommended_stops: number;
  followed_stops: number;
  fuelings_without_recommendation: { total: number; by_reason: Record<UnmatchedReason, number> };
  fuel_tax_treatment: 'ifta' | 'pump' | 'mixed' | null;
  adherence_rate: number | null;
}

/** followed ÷ due, or null when nothing was due (no advice is not perfect adherence). */
export function adherenceRate(recommended: number, followed: number): number | null {
  if (recommended <= 0) return null;
  return Math.round((Math.min(followed, recommended) / recommended) * 10_000) / 10_000;
}

/** The basis of the period's priced fills: one of them, `mixed`, or null without a priced fill. */
export function reportTreatment(figures: SavingsFigures): PublishedFigures['fuel_tax_treatment'] {
  if (figures.iftaFuelings > 0 && figures.pumpFuelings > 0) return 'mixed';
  if (figures.iftaFuelings > 0) return 'ifta';
  return figures.pumpFuelings > 0 ? 'pump' : null;
}

export function publishFigures(figures: SavingsFigures): PublishedFigures {
  const effectiveSpendCents = figures.spendCents - figures.creditedTaxCents;
  const byReason = Object.fromEntries(
    UNMATCHED_REASONS.map((reason) => [reason, figures[REASON_FIGURE[reason]]]),
  ) as Record<UnmatchedReason, number>;
  const counterfactualSpendUsd = (effectiveSpendCents + figures.routingCents) / 100;
  return {
    fuelings: figures.fuelings,
    gallons: Math.round(figures.milliGallons / 10) / 100,
    spend_usd: figures.spendCents / 100,
    effective_spend_usd: effectiveSpendCents / 100,
    counterfactual_spend_usd: counterfactualSpendUsd,
    benchmark_spend_usd: counterfactualSpendUsd,
    card_savings_usd: figures.cardCents / 100,
    routing_savings_usd: figures.routingCents / 100,
    savings_usd: figures.routingCents / 100,
    savings_usd_per_gallon:
      figures.counterfactualMilliGallons > 0
        ? Math.round((figures.routingCents / 100 / (figures.counterfactualMilliGallons / 1000)) * 1000) / 1000
        : null,
    missed_savings_usd: figures.missedCents / 100,
    recommended_stops: figures.recommendedStops,
    followed_stops: figures.followedStops,
    fuelings_without_recommendation: {
      total: Object.values(byReason).reduce((sum, n) => sum + n, 0),
      by_reason: byReason,
    },
    fuel_tax_treatment: reportTreatment(figures),
    adherence_rate: adherenceRate(figures.recommendedStops, figures.followedStops),
  };
}

/** Money of one fill, to the cent (what a fueling record and an event carry). */
export const roundUsd = roundToHundredth;
