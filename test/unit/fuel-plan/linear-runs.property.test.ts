import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  LinearRuns,
  lowerEnvelope,
  PASS_BY,
  stopCost,
  TRACKING,
} from '../../../shared/domain/fuel-plan/linear-runs.ts';

const K_MAX = 60;

/**
 * A random cost function over K in [0, K_MAX]: runs with gaps between them, whole-number costs and
 * slopes, so every value is exact in floating point and ties (the tie rules are part of the
 * contract) come up all the time.
 */
const costFunction = fc
  .array(
    fc.record({
      gap: fc.integer({ min: 0, max: 6 }),
      length: fc.integer({ min: 1, max: 12 }),
      cost: fc.integer({ min: 0, max: 200 }),
      slope: fc.integer({ min: -8, max: 12 }),
    }),
    { minLength: 1, maxLength: 8 },
  )
  .map((pieces) => {
    const runs = new LinearRuns();
    let k = 0;
    for (const piece of pieces) {
      const from = k + piece.gap;
      const to = Math.min(from + piece.length - 1, K_MAX);
      if (from > K_MAX) break;
      runs.push(from, to, from, piece.cost, piece.slope, PASS_BY);
      k = to + 1;
    }
    return runs;
  });

/** The function at K, Infinity where no run covers it; also checks the runs are sorted and disjoint. */
function valueAt(runs: LinearRuns, k: number): number {
  for (let run = 0; run < runs.length; run++) {
    if (k >= (runs.from[run] as number) && k <= (runs.to[run] as number)) return runs.costAt(run, k);
  }
  return Number.POSITIVE_INFINITY;
}

function runAt(runs: LinearRuns, k: number): number {
  for (let run = 0; run < runs.length; run++) {
    if (k >= (runs.from[run] as number) && k <= (runs.to[run] as number)) return run;
  }
  return -1;
}

function expectSortedAndDisjoint(runs: LinearRuns): void {
  for (let run = 0; run < runs.length; run++) {
    expect(runs.from[run] as number).toBeLessThanOrEqual(runs.to[run] as number);
    if (run > 0) expect(runs.from[run] as number).toBeGreaterThan(runs.to[run - 1] as number);
  }
}

describe('stopCost', () => {
  it('equals the brute-force prefix minimum at every K, with a source that reproduces the cost', () => {
    fc.assert(
      fc.property(
        costFunction,
        fc.record({
          from: fc.integer({ min: 0, max: 30 }),
          sourceSpan: fc.integer({ min: 0, max: 40 }),
          unitsMin: fc.integer({ min: 1, max: 10 }),
          targetSpan: fc.integer({ min: 0, max: 50 }),
          pricePerUnit: fc.integer({ min: 0, max: 10 }),
          detourCost: fc.integer({ min: 0, max: 20 }),
        }),
        (before, { from, sourceSpan, unitsMin, targetSpan, pricePerUnit, detourCost }) => {
          // Prepare
          const lastSource = from + sourceSpan;
          const last = from + unitsMin + targetSpan;
          const out = new LinearRuns();

          // Act
          const possible = stopCost(
            before,
            0,
            from,
            lastSource,
            last,
            unitsMin,
            pricePerUnit,
            detourCost,
            out,
          );

          // Assess
          expectSortedAndDisjoint(out);
          let anyFinite = false;
          for (let target = 0; target <= last + 5; target++) {
            let expected = Number.POSITIVE_INFINITY;
            if (target >= from + unitsMin && target <= last) {
              for (let source = from; source <= Math.min(lastSource, target - unitsMin); source++) {
                const cost = valueAt(before, source) + pricePerUnit * (target - source) + detourCost;
                expected = Math.min(expected, cost);
              }
            }
            expect(valueAt(out, target)).toBe(expected);
            if (expected === Number.POSITIVE_INFINITY) continue;
            anyFinite = true;
            const run = runAt(out, target);
            const tagged = out.source[run] as number;
            const source = tagged === TRACKING ? target - unitsMin : tagged;
            expect(source).toBeGreaterThanOrEqual(from);
            expect(source).toBeLessThanOrEqual(Math.min(lastSource, target - unitsMin));
            expect(valueAt(before, source) + pricePerUnit * (target - source) + detourCost).toBe(expected);
          }
          expect(possible).toBe(anyFinite);
        },
      ),
      { numRuns: 1500 },
    );
  });
});

describe('lowerEnvelope', () => {
  it('equals the pointwise minimum above lo, ties going to passing by', () => {
    fc.assert(
      fc.property(costFunction, costFunction, fc.integer({ min: 0, max: 20 }), (pass, stopRuns, lo) => {
        // Prepare: stop runs carry a source; use each run's index so the test can tell them apart.
        const stop = new LinearRuns();
        for (let run = 0; run < stopRuns.length; run++) {
          stop.push(
            stopRuns.from[run] as number,
            stopRuns.to[run] as number,
            stopRuns.anchorK[run] as number,
            stopRuns.anchorCost[run] as number,
            stopRuns.slope[run] as number,
            run,
          );
        }
        let firstRun = 0;
        while (firstRun < pass.length && (pass.to[firstRun] as number) < lo) firstRun++;
        const out = new LinearRuns();

        // Act
        lowerEnvelope(pass, firstRun, lo, stop, out);

        // Assess
        expectSortedAndDisjoint(out);
        for (let k = 0; k <= K_MAX + 1; k++) {
          const passCost = k >= lo ? valueAt(pass, k) : Number.POSITIVE_INFINITY;
          const stopCostAtK = valueAt(stop, k);
          expect(valueAt(out, k)).toBe(Math.min(passCost, stopCostAtK));
          if (passCost === Number.POSITIVE_INFINITY && stopCostAtK === Number.POSITIVE_INFINITY) continue;
          const source = out.source[runAt(out, k)];
          expect(source).toBe(stopCostAtK < passCost ? stop.source[runAt(stop, k)] : PASS_BY);
        }
      }),
      { numRuns: 1500 },
    );
  });
});
