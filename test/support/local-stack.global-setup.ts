import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { TestProject } from 'vitest/node';
import { readCredentials } from '#local/credentials.ts';
import { startLocalStack } from '#local/stack.ts';
import { WEBHOOK_TARGETS_ENV } from '#shared/platform/config.ts';
import { type FunctionBundlesLease, leaseFunctionBundles } from './function-bundles.ts';
import './provided-context.ts';

/**
 * What the local stack's stage servers run in the e2e suite: `bundles` (default), the artifacts
 * `cdk deploy` uploads, built here once; `sources`, the TypeScript modules, for a faster loop while
 * developing (no bundling).
 */
export const E2E_FUNCTION_CODE_ENV = 'E2E_FUNCTION_CODE';

/**
 * Global setup of the `e2e` project. With `E2E_CREDENTIALS=<file>` the tests run against the
 * deployed stage that file describes and nothing starts here. Otherwise the local stack starts on
 * free ports with its credentials in a temporary file (never the developer's
 * .local/credentials.json), and stops when the run ends. Its stage servers run the function bundles
 * (scripts/bundle-functions.ts), built while DynamoDB Local starts, once per run for this project
 * and the CDK tests (test/support/function-bundles.ts): the suite tests what deploys.
 */
export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  const deployed = process.env.E2E_CREDENTIALS;
  if (deployed) {
    const path = resolve(deployed);
    readCredentials(path); // fail here, once, with a clear message, rather than in every test
    project.provide('e2eCredentialsPath', path);
    project.provide('e2eTarget', 'deployed');
    project.provide('e2eDynamoDbEndpoint', '');
    project.provide('e2eFunctionBundles', '');
    return undefined;
  }
  // The delivery tests run receivers on loopback, which the local stack accepts as `npm start` does
  // by default; the stage servers inherit this environment, so a developer's own setting must not
  // change what the tests exercise.
  delete process.env[WEBHOOK_TARGETS_ENV];
  // The sandbox twin's trucks move every 2 s rather than every minute (test/e2e/sandbox.test.ts).
  process.env.LOCAL_SANDBOX_TICK_INTERVAL_MS ??= '2000';
  const code = functionCode(process.env[E2E_FUNCTION_CODE_ENV]);
  const folder = mkdtempSync(join(tmpdir(), 'fleet-fuel-e2e-'));
  // Shared with the CDK tests of the same run; built while DynamoDB Local starts.
  const bundles: FunctionBundlesLease | undefined = code === 'bundles' ? leaseFunctionBundles() : undefined;
  let stack: Awaited<ReturnType<typeof startLocalStack>>;
  try {
    stack = await startLocalStack({
      ...(bundles ? { functionBundles: bundles.outdir } : {}),
      port: 0,
      sandboxPort: 0,
      credentialsPath: join(folder, 'credentials.json'),
      quiet: process.env.E2E_VERBOSE !== '1',
      onUnexpectedExit: (message) => console.error(`e2e: ${message}`),
    });
  } catch (error) {
    bundles?.release();
    throw error;
  }
  project.provide('e2eCredentialsPath', stack.credentialsPath);
  project.provide('e2eTarget', 'local');
  project.provide('e2eDynamoDbEndpoint', stack.dynamoDbEndpoint);
  project.provide('e2eFunctionBundles', stack.functionBundles ?? '');
  return async () => {
    await stack.stop();
    bundles?.release();
    rmSync(folder, { recursive: true, force: true });
  };
}

function functionCode(value: string | undefined): 'bundles' | 'sources' {
  if (value === undefined || value === '' || value === 'bundles') return 'bundles';
  if (value === 'sources') return 'sources';
  throw new Error(`${E2E_FUNCTION_CODE_ENV}=${value}: use \`bundles\` (the default) or \`sources\``);
}
