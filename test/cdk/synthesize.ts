import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { inject } from 'vitest';
import { OPERATOR_PRINCIPALS_CONTEXT } from '#lib/control-plane-stack.ts';
import { addStages, type FleetFuelStages } from '#lib/fleet-fuel-app.ts';
import { bundleFunctions, repoRoot } from '#scripts/bundle-functions.ts';
import '../support/provided-context.ts';

/**
 * The CDK tests' one build: bundles every handler once into a temporary folder (never the repo's
 * dist/, which a concurrent `cdk synth` may be using) and hands out apps built from it.
 */
/** The operator every test synth names (`-c operatorPrincipals=…` on a real deploy). */
export const TEST_OPERATOR = 'arn:aws:iam::111111111111:user/test-operator';

export interface CdkFixture {
  functionsDir: string;
  /** A fresh app with both stages and cdk.json's feature flags, as `cdk synth` would build it. */
  createApp(): { app: App; stages: FleetFuelStages; outdir: string };
  cleanUp(): void;
}

export async function bundleForCdkTests(): Promise<CdkFixture> {
  const workDir = mkdtempSync(join(tmpdir(), 'fleet-fuel-cdk-'));
  // The run's one build, shared with the e2e stack (test/support/function-bundles.ts), when the
  // project's global setup made it; else one of our own.
  const shared = inject('functionBundles');
  const functionsDir = shared || join(workDir, 'functions');
  if (!shared) await bundleFunctions({ outdir: functionsDir });
  const { context } = JSON.parse(readFileSync(join(repoRoot, 'cdk.json'), 'utf8')) as {
    context: Record<string, unknown>;
  };
  let apps = 0;
  return {
    functionsDir,
    createApp() {
      apps += 1;
      const outdir = join(workDir, `cdk.out.${apps}`);
      // Deploys name their operators (lib/control-plane-stack.ts); the tests name one.
      const app = new App({ context: { ...context, [OPERATOR_PRINCIPALS_CONTEXT]: TEST_OPERATOR }, outdir });
      return { app, stages: addStages(app, { functionsDir }), outdir };
    },
    cleanUp: () => rmSync(workDir, { recursive: true, force: true }),
  };
}
