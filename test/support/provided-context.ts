/**
 * Values the global setups hand to test files through vitest's provide/inject (the setups run in
 * the main process, tests in workers, so this is the channel between them).
 */
declare module 'vitest' {
  export interface ProvidedContext {
    /** Absolute path of the credentials file the e2e tests call with. */
    e2eCredentialsPath: string;
    /** `local`: the stack the e2e setup started; `deployed`: the stage E2E_CREDENTIALS describes. */
    e2eTarget: 'local' | 'deployed';
    /**
     * The local stack's DynamoDB Local, for e2e checks of what was stored that no route shows
     * (breadcrumb history); empty against a deployed stage.
     */
    e2eDynamoDbEndpoint: string;
    /**
     * The folder of function bundles the local stack's stage servers run (E2E_FUNCTION_CODE);
     * empty when they run the TypeScript sources, or against a deployed stage.
     */
    e2eFunctionBundles: string;
    /**
     * The function bundles of this run (test/support/function-bundles.ts) the CDK tests synthesize
     * from; empty where a project builds none.
     */
    functionBundles: string;
    /** DynamoDB Local's URL for the integration tests. */
    dynamoDbEndpoint: string;
  }
}

export {};
