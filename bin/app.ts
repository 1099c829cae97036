import { existsSync } from 'node:fs';
import { relative } from 'node:path';
import { App } from 'aws-cdk-lib';
import { addStages } from '#lib/fleet-fuel-app.ts';
import { bundleFunctions, defaultFunctionsDir } from '#scripts/bundle-functions.ts';

// Every synth bundles first, so a deploy can never ship stale handler code. SKIP_BUNDLE=1 reuses
// dist/functions (e.g. `npm run build` just ran), which keeps repeated synths to the CDK's own time.
const reuseBundles = process.env.SKIP_BUNDLE === '1' && existsSync(defaultFunctionsDir);
if (!reuseBundles) {
  const started = performance.now();
  const { sizes } = await bundleFunctions();
  const largest = sizes[0];
  // stderr, so nothing the app prints can mix with what `cdk synth` writes to stdout.
  console.error(
    `bundled ${sizes.length} functions into ${relative(process.cwd(), defaultFunctionsDir)} in ` +
      `${Math.round(performance.now() - started)} ms` +
      (largest ? ` (largest: ${largest.name}, ${(largest.bytes / 1024).toFixed(0)} KB)` : ''),
  );
}

const app = new App();
addStages(app, { functionsDir: defaultFunctionsDir });
app.synth();
