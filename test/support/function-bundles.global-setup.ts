import type { TestProject } from 'vitest/node';
import { leaseFunctionBundles } from './function-bundles.ts';
import './provided-context.ts';

/**
 * Global setup of the `cdk` project: the function bundles it synthesizes from, built once for the
 * run and shared with the e2e stack (test/support/function-bundles.ts).
 */
export default async function setup(project: TestProject): Promise<() => void> {
  const bundles = leaseFunctionBundles();
  try {
    project.provide('functionBundles', await bundles.outdir);
  } catch (error) {
    bundles.release();
    throw error;
  }
  return () => bundles.release();
}
