import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { addStages, type FleetFuelStages } from '../../lib/fleet-fuel-app.ts';
import { bundleFunctions, repoRoot } from '../../scripts/bundle-functions.ts';

/**
 * The CDK tests' one build: bundles every handler once into a temporary folder (never the repo's
 * dist/, which a concurrent `cdk synth` may be using) and hands out apps built from it.
 */
export interface CdkFixture {
  functionsDir: string;
  /** A fresh app with both stages and cdk.json's feature flags, as `cdk synth` would build it. */
  createApp(): { app: App; stages: FleetFuelStages; outdir: string };
  cleanUp(): void;
}

export async function bundleForCdkTests(): Promise<CdkFixture> {
  const workDir = mkdtempSync(join(tmpdir(), 'fleet-fuel-cdk-'));
  const functionsDir = join(workDir, 'functions');
  await bundleFunctions({ outdir: functionsDir });
  const { context } = JSON.parse(readFileSync(join(repoRoot, 'cdk.json'), 'utf8')) as {
    context: Record<string, unknown>;
  };
  let apps = 0;
  return {
    functionsDir,
    createApp() {
      apps += 1;
      const outdir = join(workDir, `cdk.out.${apps}`);
      const app = new App({ context, outdir });
      return { app, stages: addStages(app, { functionsDir }), outdir };
    },
    cleanUp: () => rmSync(workDir, { recursive: true, force: true }),
  };
}
