import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  LinearRuns,
  lowerEnvelope,
  PASS_BY,
  stopCost,
  TRACKING,
} from '#shared/fuel-plan/domain/linear-runs.ts';
import { PROPERTY_TIMEOUT_MS } from '#test/support/property-budget.ts';

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

/** The function at K, Infinity where no run covers it. */
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

/** 0, 1, …, last. */
const upTo = (last: number) => Array.from({ length: last + 1 }, (_, k) => k);

/**
 * The runs that are empty or do not start after the previous one ends: none, for sorted and
 * disjoint runs.
 */
function unsortedOrOverlapping(runs: LinearRuns): number[] {
  const wrong: number[] = [];
  for (let run = 0; run < runs.length; run++) {
    const from = runs.from[run] as number;
    if (from > (runs.to[run] as number) || (run > 0 && from <= (runs.to[run - 1] as number))) wrong.push(run);
  }
  return wrong;
}

// Each property compares whole functions (every K in one `toEqual`) rather than one `expect` per K:
// hundreds of thousands of `expect` calls cost seconds, the comparison milliseconds, and a failure
// still shows every K that differs.
describe('stopCost', () => {
  it('equals the brute-force prefix minimum at every K, with a source that reproduces the cost', {
    timeout: PROPERTY_TIMEOUT_MS,
  }, () => {
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
          const costFrom = (source: number, target: number) =>
            valueAt(before, source) + pricePerUnit * (target - source) + detourCost;

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
          expect(unsortedOrOverlapping(out)).toEqual([]);
          const targets = upTo(last + 5);
          const expected = targets.map((target) => {
            let least = Number.POSITIVE_INFINITY;
            if (target >= from + unitsMin && target <= last) {
              for (let source = from; source <= Math.min(lastSource, target - unitsMin); source++) {
                least = Math.min(least, costFrom(source, target));
              }
            }
            return least;
          });
          expect(targets.map((target) => valueAt(out, target))).toEqual(expected);
          // Where a stop is possible, the run's source is a legal one that costs exactly that.
          const badSources = targets.filter((target) => {
            if (expected[target] === Number.POSITIVE_INFINITY) return false;
            const tagged = out.source[runAt(out, target)] as number;
            const source = tagged === TRACKING ? target - unitsMin : tagged;
            return (
              source < from ||
              source > Math.min(lastSource, target - unitsMin) ||
              costFrom(source, target) !== expected[target]
            );
          });
          expect(badSources).toEqual([]);
          expect(possible).toBe(expected.some((cost) => cost !== Number.POSITIVE_INFINITY));
        },
      ),
      { numRuns: 1500 },
    );
  });
});

describe('lowerEnvelope', () => {
  it('equals the pointwise minimum above lo, ties going to passing by', {
    timeout: PROPERTY_TIMEOUT_MS,
  }, () => {
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
        expect(unsortedOrOverlapping(out)).toEqual([]);
        const ks = upTo(K_MAX + 1);
        const passCost = (k: number) => (k >= lo ? valueAt(pass, k) : Number.POSITIVE_INFINITY);
        expect(ks.map((k) => valueAt(out, k))).toEqual(
          ks.map((k) => Math.min(passCost(k), valueAt(stop, k))),
        );
        const covered = ks.filter(
          (k) => Math.min(passCost(k), valueAt(stop, k)) !== Number.POSITIVE_INFINITY,
        );
        expect(covered.map((k) => out.source[runAt(out, k)])).toEqual(
          covered.map((k) => (valueAt(stop, k) < passCost(k) ? stop.source[runAt(stop, k)] : PASS_BY)),
        );
      }),
      { numRuns: 1500 },
    );
  });
});
