import { defineConfig } from 'vitest/config';

/**
 * Four projects, one per kind of test (docs/architecture.md#tests): each pays only for what it needs.
 * `unit` starts nothing; `integration` gets one DynamoDB Local for the run; `e2e` gets the whole
 * local stack (or a deployed stage with E2E_CREDENTIALS=<credentials file>); `cdk` synthesizes.
 * `vitest run --project unit` runs one of them.
 *
 * Timeouts are sized for a loaded 2-core machine, which runs tests 2–3× slower than an idle one.
 */
export default defineConfig({
  test: {
    // Projects without test files yet must not fail `npm test`.
    passWithNoTests: true,
    // Tests provoke failures on purpose (a missing table, a throwing store); their ERROR logs would
    // bury real output. Set POWERTOOLS_LOG_LEVEL=DEBUG to see them.
    env: {
      POWERTOOLS_LOG_LEVEL: process.env.POWERTOOLS_LOG_LEVEL ?? 'SILENT',
      POWERTOOLS_METRICS_DISABLED: process.env.POWERTOOLS_METRICS_DISABLED ?? 'true',
    },
    // The test files of a worker share its modules: importing the app (and aws-cdk-lib) afresh for
    // each file took longer than running the unit tests. So a test file leaves no global state
    // behind: no vi.mock (fakes go to the factories), and what it patches (a mockClient, a spy,
    // process.env, a prototype) it restores; test/unit/test-support/shared-modules.test.ts checks.
    isolate: false,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          // local/*.test.ts: the local stack's own unit tests (router, API Gateway adapter), kept beside it.
          include: ['test/unit/**/*.test.ts', 'local/**/*.test.ts'],
          // The slowest unit tests take ~3 s idle (the Redocly lint, the bundles).
          testTimeout: 15_000,
          hookTimeout: 30_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          globalSetup: ['test/support/dynamodb.global-setup.ts'],
          setupFiles: ['test/support/dynamodb-env.setup.ts'],
          // The longest test without a timeout of its own (a guidance simulation's whole trip) ran
          // 15 s at load 11: DynamoDB Local's JVM shares the cores.
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          globalSetup: ['test/support/local-stack.global-setup.ts'],
          // Room for a wait on the stack's asynchronous effects (test/e2e/support-waits.ts); the
          // browser test's first run also unpacks Chromium in its beforeAll.
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'cdk',
          include: ['test/cdk/**/*.test.ts'],
          // The function bundles, built once for the run and shared with the e2e stack.
          globalSetup: ['test/support/function-bundles.global-setup.ts'],
          testTimeout: 180_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
