import { roundToHundredth } from '../rounding.ts';
import type { Fueling } from '../telematics/fueling-record.ts';

/**
 * A vehicle's savings figures, in integer units so rows add up exactly and totals are the sum of
 * the vehicle rows to the cent: gallons in thousandths, dollars in cents.
 */
export interface SavingsFigures {
  fuelings: number;
  milliGallons: number;
  /** Gallons of fills whose price paid is known: the denominator of savings per gallon. */
  pricedMilliGallons: number;
  spendCents: number;
  benchmarkCents: number;
  missedCents: number;
  recommendedStops: number;
  followedStops: number;
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

/** What one fueling contributes to its vehicle's report on the day it was made. */
export function fuelingFigures(fueling: Fueling): SavingsFigures {
  if (isMergedDetection(fueling)) return NO_FIGURES;
  const gallons = fueling.gallons ?? 0;
  const net = fueling.netPrice ?? null;
  const spend = fueling.totalUsd ?? (net === null ? null : net * gallons);
  const priced = spend !== null && gallons > 0;
  // No catalog station within the radius: nothing to compare with, so the fill saved nothing.
  const benchmark = fueling.benchmarkPrice ?? null;
  const spendCents = priced ? cents(spend) : 0;
  return {
    ...NO_FIGURES,
    fuelings: 1,
    milliGallons: Math.round(gallons * 1000),
    pricedMilliGallons: priced ? Math.round(gallons * 1000) : 0,
    spendCents,
    benchmarkCents: priced ? (benchmark === null ? spendCents : cents(benchmark * gallons)) : 0,
    missedCents: cents(fueling.missedSavingsUsd ?? 0),
  };
}

/** The report's figures of one vehicle or of the fleet, as published. */
export interface PublishedFigures {
  fuelings: number;
  gallons: number;
  spend_usd: number;
  benchmark_spend_usd: number;
  savings_usd: number;
  savings_usd_per_gallon: number | null;
  missed_savings_usd: number;
  recommended_stops: number;
  followed_stops: number;
  adherence_rate: number | null;
}

/** followed ÷ due, or null when nothing was due (no advice is not perfect adherence). */
export function adherenceRate(recommended: number, followed: number): number | null {
  if (recommended <= 0) return null;
  return Math.round((Math.min(followed, recommended) / recommended) * 10_000) / 10_000;
}

export function publishFigures(figures: SavingsFigures): PublishedFigures {
  const savingsCents = figures.benchmarkCents - figures.spendCents;
  return {
    fuelings: figures.fuelings,
    gallons: Math.round(figures.milliGallons / 10) / 100,
    spend_usd: figures.spendCents / 100,
    benchmark_spend_usd: figures.benchmarkCents / 100,
    savings_usd: savingsCents / 100,
    savings_usd_per_gallon:
      figures.pricedMilliGallons > 0
        ? Math.round((savingsCents / 100 / (figures.pricedMilliGallons / 1000)) * 1000) / 1000
        : null,
    missed_savings_usd: figures.missedCents / 100,
    recommended_stops: figures.recommendedStops,
    followed_stops: figures.followedStops,
    adherence_rate: adherenceRate(figures.recommendedStops, figures.followedStops),
  };
}

/** Money of one fill, to the cent (what a fueling record and an event carry). */
export const roundUsd = roundToHundredth;

/** The average of posted prices, to a tenth of a cent like a pump sign; null for none. */
export function averagePrice(prices: readonly number[]): number | null {
  if (prices.length === 0) return null;
  return Math.round((prices.reduce((sum, p) => sum + p, 0) / prices.length) * 1000) / 1000;
}

/**
 * Missed savings of a fill made elsewhere while a recommendation stood: what it paid over the
 * recommended net price, times its gallons; never negative (a cheaper fill elsewhere missed
 * nothing), and zero when the price paid is unknown.
 */
export function missedSavings(
  netPaid: number | null,
  recommendedNet: number,
  gallons: number | null,
): number {
  if (netPaid === null || gallons === null) return 0;
  return roundUsd(Math.max(0, netPaid - recommendedNet) * gallons);
}
