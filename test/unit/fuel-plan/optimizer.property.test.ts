import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { solveFuelPlanExhaustively } from '#shared/fuel-plan/domain/exhaustive.ts';
import { formatUsd } from '#shared/fuel-plan/domain/format.ts';
import { optimizeFuelPurchases } from '#shared/fuel-plan/domain/optimizer.ts';
import { planFuel } from '#shared/fuel-plan/domain/plan.ts';
import { prepareFuelProblem } from '#shared/fuel-plan/domain/problem.ts';
import { simulateFuelPurchases } from '#shared/fuel-plan/domain/simulate.ts';
import { PROPERTY_TIMEOUT_MS } from '#test/support/property-budget.ts';
import { mediumFuelPlanInput, smallFuelPlanInput, withFuelProgram } from './arbitraries.ts';
import { denseLeastObjective } from './dense-reference.ts';

/** Two sums of the same purchases in another order differ by float rounding only. */
const COST_EPSILON = 1e-9;

describe('optimizeFuelPurchases against the exhaustive solver', () => {
  it.each([
    ['as runs, as in production', {}, 6000, smallFuelPlanInput],
    ['dense from the start', { denseAfterRuns: 0 }, 2000, smallFuelPlanInput],
    ['handing over to dense mid-route', { denseAfterRuns: 2 }, 2000, smallFuelPlanInput],
    // The penalty is in the objective both minimize, so the optimizer stays exact with it.
    ['under a preferred fuel program, as runs', {}, 3000, withFuelProgram(smallFuelPlanInput)],
    [
      'under a preferred fuel program, dense',
      { denseAfterRuns: 0 },
      1000,
      withFuelProgram(smallFuelPlanInput),
    ],
  ] as const)(
    'finds a plan exactly when one exists, and none cheaper exists (%s)',
    { timeout: PROPERTY_TIMEOUT_MS },
    (_how, options, numRuns, inputs) => {
      fc.assert(
        fc.property(inputs, (input) => {
          // Prepare
          const problem = prepareFuelProblem(input);

          // Act
          const optimized = optimizeFuelPurchases(problem, options);
          const exhaustive = solveFuelPlanExhaustively(problem);

          // Assess
          expect(optimized.feasible).toBe(exhaustive.feasible);
          if (optimized.feasible && exhaustive.feasible) {
            expect(optimized.objective).toBeLessThanOrEqual(exhaustive.objective + COST_EPSILON);
            // And no lower: the optimizer's plan is itself one the exhaustive solver tried.
            expect(optimized.objective).toBeGreaterThanOrEqual(exhaustive.objective - COST_EPSILON);
            const simulation = simulateFuelPurchases(problem, optimized.gallonsByStation, 1e-6);
            expect(simulation.objective).toBeCloseTo(optimized.objective, 6);
          }
        }),
        { numRuns },
      );
    },
  );

  it('returns plans that keep every rule when driven step by step, at the cost it reports', {
    timeout: PROPERTY_TIMEOUT_MS,
  }, () => {
    fc.assert(
      fc.property(smallFuelPlanInput, (input) => {
        // Prepare
        const problem = prepareFuelProblem(input);

        // Act
        const optimized = optimizeFuelPurchases(problem);

        // Assess: the simulator checks reserve, tank, minimum purchase and arrival.
        if (!optimized.feasible) return;
        const simulation = simulateFuelPurchases(problem, optimized.gallonsByStation, 1e-6);
        expect(simulation.violations).toEqual([]);
        expect(simulation.objective).toBeCloseTo(optimized.objective, 6);
        for (const gallons of optimized.gallonsByStation) {
          if (gallons > 0) expect(gallons).toBeGreaterThanOrEqual(problem.minPurchaseGallons - 1e-6);
        }
      }),
      { numRuns: 2000 },
    );
  });
});

describe('optimizeFuelPurchases against the dense DP on realistic trucks', () => {
  it.each([
    ['as runs, as in production', {}],
    ['handing over to dense mid-route', { denseAfterRuns: 8 }],
  ] as const)(
    'agrees on feasibility and on the least cost (%s)',
    { timeout: PROPERTY_TIMEOUT_MS },
    (_how, options) => {
      fc.assert(
        fc.property(mediumFuelPlanInput, (input) => {
          // Prepare
          const problem = prepareFuelProblem(input);

          // Act
          const optimized = optimizeFuelPurchases(problem, options);
          const dense = denseLeastObjective(problem);

          // Assess
          expect(optimized.feasible).toBe(dense !== null);
          if (optimized.feasible && dense !== null) {
            expect(Math.abs(optimized.objective - dense)).toBeLessThanOrEqual(1e-9 * Math.max(1, dense));
            expect(simulateFuelPurchases(problem, optimized.gallonsByStation, 1e-6).violations).toEqual([]);
          }
        }),
        { numRuns: 500 },
      );
    },
  );
});

describe('planFuel on random instances', () => {
  it('reports a consistent plan: status, rounded stops adding up to the totals, a reason per stop', {
    timeout: PROPERTY_TIMEOUT_MS,
  }, () => {
    fc.assert(
      fc.property(mediumFuelPlanInput, (input) => {
        // Act
        const plan = planFuel(input);
        const problem = prepareFuelProblem(input);

        // Assess
        expect(plan.taxTreatment).toBe(input.taxTreatment);
        if (plan.status === 'infeasible') {
          expect(plan.stops).toEqual([]);
          expect(plan.reason).toMatch(/^(No station within reach|Cannot reach Denver|Current fuel)/);
          expect(plan.counterfactual).toBeNull();
          expect(plan.savings).toBeNull();
          return;
        }
        expect(plan.status).toBe(plan.stops.length === 0 ? 'no_stop_needed' : 'ok');
        const centsSum = plan.stops.reduce((sum, stop) => sum + Math.round(stop.cost * 100), 0);
        expect(Math.round(plan.totalCost * 100)).toBe(centsSum);
        const gallonsSum = plan.stops.reduce((sum, stop) => sum + stop.gallons, 0);
        expect(Math.abs(plan.totalGallons - gallonsSum)).toBeLessThanOrEqual(0.05 * plan.stops.length + 1e-9);
        for (const stop of plan.stops) {
          expect(Math.round(stop.gallons * 10)).toBeCloseTo(stop.gallons * 10, 9);
          expect(stop.gallons).toBeGreaterThanOrEqual((input.minPurchaseGallons ?? 0) - 0.05);
          expect(stop.reason).toContain(`${stop.gallons} gal`);
          // The reason quotes the price the plan chose on: after the credit where one was taken.
          const credited = input.taxTreatment === 'ifta' && (stop.stateTax ?? 0) > 0;
          expect(stop.reason).toContain(
            credited
              ? `${formatUsd(stop.effectivePrice)} after tax credit`
              : `${formatUsd(stop.netPrice)} net`,
          );
          expect(stop.effectivePrice).toBeCloseTo(stop.netPrice - (credited ? (stop.stateTax ?? 0) : 0), 2);
          // Both costs are of the exact gallons (shown to 0.1): equal where nothing is credited.
          if (!credited) expect(stop.effectiveCost).toBe(stop.cost);
          expect(Math.abs(stop.effectiveCost - stop.gallons * stop.effectivePrice)).toBeLessThanOrEqual(
            0.05 * stop.effectivePrice + 0.005,
          );
          // The counterfactual is a mean over stations in reach, the stop itself among them.
          const prices = problem.stations.map((s) => s.effectivePrice);
          expect(stop.counterfactual.stationCount).toBeGreaterThanOrEqual(1);
          expect(stop.counterfactual.netPrice).toBeGreaterThanOrEqual(Math.min(...prices) - 0.0005);
          expect(stop.counterfactual.netPrice).toBeLessThanOrEqual(Math.max(...prices) + 0.0005);
          expect(stop.counterfactual.pumpPrice).toBeGreaterThanOrEqual(stop.counterfactual.netPrice);
        }
        // The comparison adds up: the plan's cost is its stops' effective costs, the saving the
        // difference to the cent; the counterfactual is the same gallons at the stops' means.
        if (plan.stops.length === 0) {
          expect(plan.savings).toBeNull();
        } else {
          const cents = (usd: number) => Math.round(usd * 100);
          const planCents = plan.stops.reduce((sum, stop) => sum + cents(stop.effectiveCost), 0);
          const shownCounterfactual = plan.stops.reduce(
            (sum, stop) => sum + stop.gallons * stop.counterfactual.netPrice,
            0,
          );
          const savings = plan.savings;
          expect(savings).not.toBeNull();
          if (!savings) return;
          expect(cents(savings.planCost)).toBe(planCents);
          expect(cents(savings.usd)).toBe(cents(savings.counterfactualCost) - planCents);
          expect(Math.abs(savings.counterfactualCost - shownCounterfactual)).toBeLessThanOrEqual(
            plan.stops.length * (0.05 * 5 + 0.005),
          );
        }
        expect(plan.arrivalFuelGallons).toBeGreaterThanOrEqual(input.minArrivalGallons - 0.05);
      }),
      { numRuns: 500 },
    );
  });
});
