import { creditedTax, effectivePrice } from '#shared/fuel-tax/domain/effective-price.ts';
import type { FuelTaxTreatment } from '#shared/fuel-tax/domain/treatment.ts';
import type { Fueling } from '#shared/tracking/domain/fueling-record.ts';
import type { FillCounterfactual } from './fill-counterfactual.ts';
import type { RecommendedStop } from './recommendations.ts';

/**
 * A fill priced on the fleet's basis and judged against what it would have cost without our advice.
 *
 * The counterfactual of a purchase is the mean price of the stations the truck could have bought
 * at instead (the route's candidates from the previous purchase point up to where its fuel runs
 * out, the stop included), kept on the recommendation when it was shown: `pumpPrice` without the
 * fleet's card, `netPrice` with it, both net of the credited state tax under `ifta`. A fill takes
 * the counterfactual of the recommendation it followed, else of the one it passed over (a fill
 * elsewhere while a stop stood), else its own price (no corridor known: routing saving 0).
 *
 * Per fill, in integer cents: `counterfactual` = cf.netPrice × g (the card, no advice); the saving
 * = `routing` = counterfactual − effective spend, what choosing where to buy saved; `card` =
 * (cf.pumpPrice − cf.netPrice) × g, what the card is worth on that corridor, shown beside it and
 * never counted in the saving.
 */

/** Where the fill was bought, as the fleet's record prices it. */
export interface FillBasis {
  /** Two-letter state of the station (else of the fill's position); null when unknown. */
  state: string | null;
  /** The state diesel tax in the pump price at `fueled_at`; null when the table lacks the state. */
  stateTax: number | null;
  treatment: FuelTaxTreatment;
}

const round3 = (value: number) => Math.round(value * 1000) / 1000;
const cents = (usd: number) => Math.round(usd * 100);

/** A fill's basis as recorded; a record without a basis reads as pump prices, untaxed. */
export const basisOfFill = (fueling: Fueling): FillBasis => ({
  state: fueling.state ?? null,
  stateTax: fueling.stateTax ?? null,
  treatment: fueling.taxTreatment ?? 'pump',
});

/** The fill's effective price (net − credited tax); null when its price is unknown. */
export function fillEffectivePrice(fueling: Fueling): number | null {
  const net = fueling.netPrice ?? null;
  if (net === null) return null;
  const { stateTax, treatment } = basisOfFill(fueling);
  return effectivePrice(net, stateTax, treatment);
}

/**
 * The recommendation's effective price on the fill's basis: the one it was shown with when both
 * share the basis, else its net price less what the fill's treatment credits of its state's tax
 * (a record without a basis: its net price).
 */
export function recommendedEffectivePrice(stop: RecommendedStop, treatment: FuelTaxTreatment): number {
  if (stop.taxTreatment === treatment && stop.effectivePrice !== undefined) return stop.effectivePrice;
  return effectivePrice(stop.netPrice, stop.stateTax ?? null, treatment);
}

/**
 * The recommendation's counterfactual on the fill's basis; null when it has none on that basis (a
 * record without a basis, or shown under the other treatment): the fill then falls back
 * to its own price. A stop that stood alone in reach is its own counterfactual.
 */
export function recommendationCounterfactual(
  stop: RecommendedStop,
  treatment: FuelTaxTreatment,
): { pumpPrice: number; netPrice: number; stationCount: number } | null {
  if (stop.taxTreatment !== treatment || stop.effectivePrice === undefined) return null;
  if (stop.counterfactual) return stop.counterfactual;
  if (stop.price === undefined) return null;
  return {
    pumpPrice: round3(stop.price - creditedTax(stop.stateTax ?? null, treatment)),
    netPrice: stop.effectivePrice,
    stationCount: 1,
  };
}

/** The fill's own price as its counterfactual: no corridor known, no routing claimed. */
export function ownCounterfactual(fueling: Fueling): FillCounterfactual | null {
  const effective = fillEffectivePrice(fueling);
  if (effective === null) return null;
  return {
    source: 'own_price',
    pumpPrice: round3(effective + (fueling.discount ?? 0)),
    netPrice: effective,
    stationCount: null,
  };
}

/**
 * The fill's counterfactual: that of the recommendation it was judged against (followed or passed
 * over) when it has one on the fill's basis, else its own price; null when its price is unknown.
 */
export function fillCounterfactual(
  fueling: Fueling,
  judgedAgainst: { stop: RecommendedStop; followed: boolean } | null,
): FillCounterfactual | null {
  if (fillEffectivePrice(fueling) === null) return null;
  const of =
    judgedAgainst && recommendationCounterfactual(judgedAgainst.stop, basisOfFill(fueling).treatment);
  if (judgedAgainst && of) {
    return {
      source: judgedAgainst.followed ? 'followed_recommendation' : 'passed_over_recommendation',
      ...of,
    };
  }
  return ownCounterfactual(fueling);
}

/**
 * What a fill made elsewhere while a recommendation stood missed: (its effective price − the
 * recommendation's, on the fill's basis) × gallons, never below 0; 0 when its price is unknown.
 * Against a recommendation kept before the basis existed: (net paid − its net price) × gallons.
 */
export function missedSavingsOf(fueling: Fueling, passedOver: RecommendedStop): number {
  // A recommendation kept before the basis knows no state tax: both are compared on net prices.
  const basisKnown = passedOver.taxTreatment !== undefined;
  const paid = basisKnown ? fillEffectivePrice(fueling) : (fueling.netPrice ?? null);
  const gallons = fueling.gallons ?? null;
  if (paid === null || gallons === null) return 0;
  const recommended = basisKnown
    ? recommendedEffectivePrice(passedOver, basisOfFill(fueling).treatment)
    : passedOver.netPrice;
  return cents(Math.max(0, paid - recommended) * gallons) / 100;
}

/** One fill's money, in integer cents, so the report's rows and totals add up exactly. */
export interface FillMoney {
  /** Cash paid: total_usd when reported, else net price × gallons. */
  spendCents: number;
  /** Cash paid − the credited state tax × gallons. */
  effectiveSpendCents: number;
  /** The counterfactual net price × gallons: what the same gallons would have cost with the card, without our advice. */
  counterfactualCents: number;
  /** (cf pump − cf net) × gallons: the card on that corridor, beside the saving. */
  cardCents: number;
  /** counterfactual − effective spend: the saving of the decision. */
  routingCents: number;
}

/**
 * The money of a priced fill (null when its price or gallons are unknown). Each figure is rounded
 * once per fill and the saving is taken by difference, so routing = counterfactual − effective
 * spend exactly, and a fill priced against itself shows a routing saving of exactly 0. A record
 * without a counterfactual is priced against its own price.
 */
export function fillMoney(fueling: Fueling): FillMoney | null {
  const gallons = fueling.gallons ?? 0;
  const net = fueling.netPrice ?? null;
  const spend = fueling.totalUsd ?? (net === null ? null : net * gallons);
  if (spend === null || net === null || gallons <= 0) return null;
  const { stateTax, treatment } = basisOfFill(fueling);
  const spendCents = cents(spend);
  const effectiveSpendCents = spendCents - cents(creditedTax(stateTax, treatment) * gallons);
  const counterfactual = fueling.counterfactual ?? null;
  const own = counterfactual === null || counterfactual.source === 'own_price';
  const counterfactualCents = own ? effectiveSpendCents : cents(counterfactual.netPrice * gallons);
  const counterfactualPumpCents = own
    ? effectiveSpendCents + cents((fueling.discount ?? 0) * gallons)
    : cents(counterfactual.pumpPrice * gallons);
  return {
    spendCents,
    effectiveSpendCents,
    counterfactualCents,
    cardCents: counterfactualPumpCents - counterfactualCents,
    routingCents: counterfactualCents - effectiveSpendCents,
  };
}

/**
 * The published price fields of a fill: its basis, effective price, counterfactual and the split
 * of its saving (USD, to the cent), as the fueling record keeps them.
 */
export function pricedFill(
  fueling: Fueling,
  judgedAgainst: { stop: RecommendedStop; followed: boolean } | null,
): Fueling {
  const priced: Fueling = {
    ...fueling,
    effectivePrice: fillEffectivePrice(fueling),
    counterfactual: null,
  };
  priced.counterfactual = fillCounterfactual(priced, judgedAgainst);
  const money = fillMoney(priced);
  priced.cardSavingsUsd = money ? money.cardCents / 100 : null;
  priced.routingSavingsUsd = money ? money.routingCents / 100 : null;
  return priced;
}
