/**
 * What keeping to a fuel card program costs a fleet. On 200 seeded long hauls (the embedded network
 * and synthetic catalog, the card's discounts, the shipped state tax table, `ifta` prices), each
 * trip is planned without a rule, under a `required` program of the two largest chains (Pilot
 * Flying J and Love's, about 60 % of truck stops), and under the same program `preferred` with a
 * 5 ¢ penalty. Each plan is valued at effective prices per gallon bought:
 * - `fuel_program_required_cost_percent` (mean, p90): how much more a gallon costs when the card
 *   is refused elsewhere, over the trips where both plans buy fuel;
 * - `fuel_program_required_shortfall_trips`: trips where no accepted station is in range
 *   (`no_accepted_station_in_range`) though an unrestricted plan exists;
 * - `fuel_program_preferred_off_program_gallons_percent`: the share of gallons a `preferred` plan
 *   still buys off the program, where another chain is cheaper by more than the penalty, and
 *   `fuel_program_preferred_cost_percent` what the penalty costs per gallon against no rule.
 * Run alone with `npx tsx bench/fuel-program.ts`.
 */
import { pathToFileURL } from 'node:url';
import { planWithinProgram } from '#shared/fuel-plan/domain/fuel-program.ts';
import { type FuelPlan, type FuelPlanInput, planFuel } from '#shared/fuel-plan/domain/index.ts';
import { type FuelProgram, inFuelProgram, offProgramPenalty } from '#shared/fuel-programs/domain/program.ts';
import { longHaulTrips } from './savings.ts';
import { FUEL_PROGRAM } from './trip.ts';

export interface FuelProgramBench {
  fuel_program_required_cost_percent: number;
  fuel_program_required_cost_p90_percent: number;
  fuel_program_required_shortfall_trips: number;
  fuel_program_preferred_off_program_gallons_percent: number;
  fuel_program_preferred_cost_percent: number;
  fuel_program_trips: number;
}

const TRIPS = 200;
const PROGRAM_CHAINS = new Set(['Pilot Flying J', "Love's"]);

/** The bench card's discounts, with acceptance at the two largest chains under `rule`. */
const programOf = (rule: FuelProgram['rule'], penaltyCents: number): FuelProgram => ({
  ...FUEL_PROGRAM,
  rule,
  chains: FUEL_PROGRAM.chains.filter(({ chain }) => PROGRAM_CHAINS.has(chain)),
  offProgramPenaltyCents: penaltyCents,
});

/** The trip's stations as the program sees them (discounts stay the card's at every chain it lists). */
function underProgram(input: FuelPlanInput, program: FuelProgram): FuelPlanInput {
  return {
    ...input,
    stations: input.stations.map((station) => ({
      ...station,
      inFuelProgram: inFuelProgram(program, station.chain ?? ''),
      offProgramPenalty: offProgramPenalty(program, station.chain ?? ''),
    })),
  };
}

/** Effective cost per gallon bought (pump − discount − credited state tax); null when nothing is bought. */
function costPerGallon(plan: FuelPlan): number | null {
  const gallons = plan.stops.reduce((sum, stop) => sum + stop.gallons, 0);
  if (gallons === 0) return null;
  const cost = plan.stops.reduce(
    (sum, stop) => sum + stop.gallons * (stop.price - stop.discount - (stop.stateTax ?? 0)),
    0,
  );
  return cost / gallons;
}

const percentile = (sorted: readonly number[], share: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))] ?? 0;
const round2 = (value: number) => Math.round(value * 100) / 100;
const mean = (values: readonly number[]) =>
  values.reduce((sum, v) => sum + v, 0) / Math.max(1, values.length);

export function benchFuelProgram(trips = TRIPS): FuelProgramBench {
  const required = programOf('required', 0);
  const preferred = programOf('preferred', 5);
  const requiredPercents: number[] = [];
  const preferredPercents: number[] = [];
  const preferredGallons = { off: 0, all: 0 };
  let shortfalls = 0;
  let planned = 0;
  for (const trip of longHaulTrips(28, Date.now())) {
    if (planned >= trips) break;
    planned++;
    const input: FuelPlanInput = { ...trip.input, taxTreatment: 'ifta' };
    const free = planFuel(input);
    const freeCost = costPerGallon(free);
    const requiredInput = underProgram(input, required);
    const kept = planWithinProgram(requiredInput, 'required');
    if (kept.status === 'no_accepted_station_in_range') shortfalls++;
    const keptCost = kept.status === 'ok' ? costPerGallon(kept) : null;
    if (freeCost !== null && keptCost !== null)
      requiredPercents.push(((keptCost - freeCost) / freeCost) * 100);

    const preferredPlan = planWithinProgram(underProgram(input, preferred), 'preferred');
    const preferredCost = costPerGallon(preferredPlan);
    if (freeCost !== null && preferredCost !== null) {
      preferredPercents.push(((preferredCost - freeCost) / freeCost) * 100);
    }
    for (const stop of preferredPlan.stops) {
      preferredGallons.all += stop.gallons;
      if (stop.inFuelProgram === false) preferredGallons.off += stop.gallons;
    }
  }
  const sorted = [...requiredPercents].sort((a, b) => a - b);
  return {
    fuel_program_required_cost_percent: round2(mean(requiredPercents)),
    fuel_program_required_cost_p90_percent: round2(percentile(sorted, 0.9)),
    fuel_program_required_shortfall_trips: shortfalls,
    fuel_program_preferred_off_program_gallons_percent: round2(
      (preferredGallons.off / Math.max(1, preferredGallons.all)) * 100,
    ),
    fuel_program_preferred_cost_percent: round2(mean(preferredPercents)),
    fuel_program_trips: planned,
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) console.table(benchFuelProgram());
