/**
 * `ifta_saving_vs_pump_plan_percent`: what optimizing on pump prices costs an IFTA fleet. On 200
 * seeded interstate trips whose corridor stations lie in at least two states (the embedded network
 * and synthetic catalog, the fleet's card discounts, the shipped state diesel tax table), each trip
 * is planned twice, on pump prices (`pump`) and on tax-credited prices (`ifta`), and both plans are
 * valued at effective prices (pump − discount − the state tax credited on the IFTA return): the
 * figure is how much more the pump-price plan costs, in percent of the tax-aware plan (mean, p50,
 * p90 over the trips where both plans buy fuel). Run alone with `npx tsx bench/ifta.ts`.
 */
import { pathToFileURL } from 'node:url';
import { type FuelPlan, planFuel } from '#shared/fuel-plan/domain/index.ts';
import { longHaulTrips } from './savings.ts';

export interface IftaBench {
  ifta_saving_vs_pump_plan_percent: number;
  ifta_saving_vs_pump_plan_p50_percent: number;
  ifta_saving_vs_pump_plan_p90_percent: number;
  /** Trips where both plans buy fuel (the figure's sample). */
  ifta_trips_compared: number;
}

const TRIPS = 200;

/** A plan's purchases at effective prices: the pump price less the card and the credited state tax. */
const effectiveCost = (plan: FuelPlan) =>
  plan.stops.reduce(
    (sum, stop) => sum + stop.gallons * (stop.price - stop.discount - (stop.stateTax ?? 0)),
    0,
  );

const percentile = (sorted: readonly number[], share: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))] ?? 0;
const round2 = (value: number) => Math.round(value * 100) / 100;

export function benchIfta(trips = TRIPS): IftaBench {
  const percents: number[] = [];
  let interstate = 0;
  for (const trip of longHaulTrips(27, Date.now())) {
    if (interstate >= trips) break;
    if (trip.states.size < 2) continue;
    interstate++;
    const ifta = planFuel({ ...trip.input, taxTreatment: 'ifta' });
    const pump = planFuel({ ...trip.input, taxTreatment: 'pump' });
    if (ifta.stops.length === 0 || pump.stops.length === 0) continue;
    const aware = effectiveCost(ifta);
    percents.push(((effectiveCost(pump) - aware) / aware) * 100);
  }
  const sorted = [...percents].sort((a, b) => a - b);
  const mean = percents.reduce((sum, p) => sum + p, 0) / Math.max(1, percents.length);
  return {
    ifta_saving_vs_pump_plan_percent: round2(mean),
    ifta_saving_vs_pump_plan_p50_percent: round2(percentile(sorted, 0.5)),
    ifta_saving_vs_pump_plan_p90_percent: round2(percentile(sorted, 0.9)),
    ifta_trips_compared: percents.length,
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) console.table(benchIfta());
