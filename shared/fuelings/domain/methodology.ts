import { SHIPPED_RATES_QUARTER } from '#shared/fuel-tax/domain/state-diesel-tax.ts';
import { DEFAULT_FUEL_TAX_TREATMENT } from '#shared/fuel-tax/domain/treatment.ts';
import { FUELING_POLICY } from './policy.ts';

/** The guide's section (llms.txt `?section=`) the report's `methodology` link opens alone. */
export const SAVINGS_METHODOLOGY_ANCHOR = 'savings-methodology';

/**
 * The worked example the methodology publishes (and the unit tests redo): a truck told to buy at
 * a stop $3.27 net, in Texas, and one that bought 55 miles earlier at $3.318 net.
 */
export const METHODOLOGY_EXAMPLE = {
  gallons: 100,
  texasTax: 0.2,
  stop: { price: 3.47, discount: 0.2, net: 3.27, effective: 3.07 },
  early: { price: 3.518, discount: 0.2, net: 3.318, effective: 3.118 },
  counterfactual: { pumpPrice: 3.35, netPrice: 3.19 },
} as const;

const usd = (value: number) => `$${value.toFixed(2)}`;
const perGallon = (value: number) => `$${value.toFixed(3)}`;

/**
 * The savings methodology as Markdown: what a saving is and how to check it by hand, generated
 * from the same policy constants the report uses, so the published text cannot drift from the code.
 */
export function savingsMethodologyMarkdown(): string[] {
  const ex = METHODOLOGY_EXAMPLE;
  const g = ex.gallons;
  const card = (ex.counterfactual.pumpPrice - ex.counterfactual.netPrice) * g;
  const followerRouting = (ex.counterfactual.netPrice - ex.stop.effective) * g;
  const earlyRouting = (ex.counterfactual.netPrice - ex.early.effective) * g;
  const missed = (ex.early.effective - ex.stop.effective) * g;
  return [
    '## Savings methodology',
    '',
    'How `GET /v1/reports/savings`, `POST /v1/routes` and trips count a saving, so a fleet can redo any figure by hand. A saving is what our advice saved — where to buy — against what the fleet would have paid without it, with its card; what the card itself is worth is shown beside it, never counted in it.',
    '',
    `- **Price basis** (\`fuel_tax_treatment\`, default \`${DEFAULT_FUEL_TAX_TREATMENT}\`): an interstate fleet pays each state's diesel tax on the miles it drives there and is credited the tax paid at the pump on its quarterly IFTA return. Under \`ifta\` a gallon's **effective price** = pump − the fleet's discount − the state diesel tax in that pump price (the federal tax is not credited); under \`pump\` it is pump − discount. State rates are a table per state and quarter (shipped: ${SHIPPED_RATES_QUARTER}); a fill takes the rate in force at its \`fueled_at\` in the station's state.`,
    "- **Counterfactual** (what the fleet would have paid without our advice): for each purchase, the mean price of the stations the truck could have bought at instead — the route's stations from its previous purchase point (or its position) up to the farthest mile its fuel reaches keeping the reserve, the stop itself included. Two means, both net of the credited tax: the **counterfactual net price** (with the fleet's discount at each chain: the card, no advice) and the **counterfactual pump price** (posted prices, no card). Route optimizers publish savings against the average price along the route; this is that average restricted to the stations the truck could really have used. Routes, trips and the report use the same one; the recommendation keeps the figure from when it was shown.",
    `- **Which counterfactual a fill takes:** that of the recommended stop it followed; else, for a fill made elsewhere while a stop stood (or at most ${FUELING_POLICY.passedOverGraceMinutes} minutes after it was withdrawn), that of the stop the truck was heading to at the fill (the first of its plan by then, not the cheapest shown; its missed saving and its unfollowed count come from the same stop); else its own price (no corridor known: saving 0; \`no_stop_due\` when only stops further on stood). The fueling says which in \`counterfactual.source\`.`,
    "- **The saving, per fill of g gallons at effective price e:** `savings_usd` = `routing_savings_usd` = (cf net − e) × g = `counterfactual_spend_usd` (cf net × g) − `effective_spend_usd` (e × g): what choosing where to buy saved, negative when the fill cost more than the corridor's mean. The same figure as a route's or trip's `savings.usd`. Beside it, never in it: `card_savings_usd` = (cf pump − cf net) × g, what the card is worth on that corridor wherever the truck buys. `missed_savings_usd` (fills elsewhere while a stop stood) = max(0, e − the stop's effective price) × g. Each fill is rounded to the cent once; rows and totals are sums of those cents. `savings_usd_per_gallon` divides by the gallons of fills priced against a counterfactual; fills recorded before counterfactuals were kept count in spend (at the pump, nothing credited) but claim no saving or card and are not in that denominator.",
    `- **Adherence counts every fill:** a stop is counted once as recommended — when it is withdrawn while the truck is within ${FUELING_POLICY.dueWithinMiles} road miles of it (passed, stopped at, session ended), when a fill follows it, or when a fill is made elsewhere while it was the stop the driver was heading to. A fill at the stop's station (or within ${FUELING_POLICY.matchRadiusMiles} mile of it) while it stood or up to ${FUELING_POLICY.matchWindowHours} hours after it was withdrawn follows it. \`adherence_rate\` = followed ÷ recommended. Fills judged against no recommendation are counted by why in \`fuelings_without_recommendation\`.`,
    "- **Sandbox:** a sandbox fleet's report defaults to its simulation's clock when an advance ran it ahead of the wall clock.",
    '',
    `**Worked example** (${g} gallons each, Texas, state tax ${perGallon(ex.texasTax)}/gal, \`ifta\`). The recommended stop posts ${perGallon(ex.stop.price)}, the card takes ${perGallon(ex.stop.discount)}: net ${perGallon(ex.stop.net)}, effective ${perGallon(ex.stop.effective)}. Its counterfactual: net ${perGallon(ex.counterfactual.netPrice)}, pump ${perGallon(ex.counterfactual.pumpPrice)}. A truck that follows it: savings ${usd(followerRouting)} (${perGallon(ex.counterfactual.netPrice)} − ${perGallon(ex.stop.effective)} a gallon), card ${usd(card)} beside it, recommended 1, followed 1. A truck that fuels 55 miles earlier at ${perGallon(ex.early.price)} posted (net ${perGallon(ex.early.net)}, effective ${perGallon(ex.early.effective)}) while that stop stood takes the same counterfactual: savings ${usd(earlyRouting)}, missed ${usd(missed)}, card ${usd(card)} beside it, recommended 1, followed 0. The follower never shows less saving than the truck that passed the same stop over, and the card's ${usd(card)} is the same for both: it is not the advice's doing.`,
    '',
  ];
}
