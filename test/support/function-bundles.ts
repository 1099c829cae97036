import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundleFunctions } from '#scripts/bundle-functions.ts';

/**
 * One build of every function per test run, shared by the projects that need all of them: the e2e
 * stack runs them, the CDK tests synthesize from them. Building them is ~40 s of CPU on an idle
 * 2-core machine; twice would be a minute more of `npm test`. Written to a temporary folder, never
 * the repo's dist/ (a concurrent `cdk synth` may be using it), removed when the last project
 * releases it.
 *
 * The global setups run in vitest's main process but may each load this module afresh (one module
 * graph per project), so the build is kept on `globalThis`.
 */
interface SharedBuild {
  outdir: Promise<string>;
  folder: string;
  holders: number;
}

const SHARED_BUILD_KEY = Symbol.for('fleet-fuel.test-function-bundles');
const registry = globalThis as { [SHARED_BUILD_KEY]?: SharedBuild };

export interface FunctionBundlesLease {
  /** The folder holding `<name>/index.mjs` for every function (scripts/bundle-functions.ts). */
  outdir: Promise<string>;
  /** Gives the build back; the folder goes with the last lease. */
  release(): void;
}

/**
 * @example
 * const bundles = leaseFunctionBundles();
 * project.provide('functionBundles', await bundles.outdir);
 * return () => bundles.release();
 */
export function leaseFunctionBundles(): FunctionBundlesLease {
  let build = registry[SHARED_BUILD_KEY];
  if (!build) {
    const folder = mkdtempSync(join(tmpdir(), 'fleet-fuel-bundles-'));
    const outdir = bundleFunctions({ outdir: join(folder, 'functions') }).then((result) => result.outdir);
    // Observed by each holder; until then a failure must not count as unhandled.
    outdir.catch(() => {});
    build = { outdir, folder, holders: 0 };
    registry[SHARED_BUILD_KEY] = build;
  }
  build.holders += 1;
  const held = build;
  let released = false;
  return {
    outdir: held.outdir,
    release() {
      if (released) return;
      released = true;
      held.holders -= 1;
      if (held.holders > 0) return;
      delete registry[SHARED_BUILD_KEY];
      rmSync(held.folder, { recursive: true, force: true });
    },
  };
}
