/**
 * The fuel plan (docs/architecture.md#the-fuel-plan): where to buy diesel on a route and how much, at the
 * least cost that keeps the reserve, the tank and the arrival minimum. planFuel is the entry point;
 * the rest is exported for the routes use case, the property tests and the benchmark.
 */
export {
  COUNTERFACTUAL_DESCRIPTION,
  counterfactualOver,
  firstPurchaseCounterfactual,
  firstPurchaseInReach,
  purchaseCounterfactuals,
  stationsInReach,
} from './counterfactual.ts';
export { type ExhaustiveSolution, solveFuelPlanExhaustively } from './exhaustive.ts';
export {
  acceptedStations,
  describeShortfall,
  fuelProgramShortfall,
  planWithinProgram,
} from './fuel-program.ts';
export { type OptimizedPurchases, optimizeFuelPurchases } from './optimizer.ts';
export { planFuel } from './plan.ts';
export * from './policy.ts';
export { prepareFuelProblem } from './problem.ts';
export { offProgramNote } from './reasons.ts';
export { meanStationPrice, planCounterfactual, planSavings } from './savings.ts';
export { type FuelSimulation, type SimulatedStop, simulateFuelPurchases } from './simulate.ts';
export type * from './types.ts';
