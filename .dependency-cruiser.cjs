/**
 * The layering, written as rules dependency-cruiser checks on every `npm test`
 * (test/unit/architecture/dependency-rules.test.ts; docs/architecture.md#the-rules-the-build-enforces).
 *
 * Paths are relative to the repository root. A rule names what must not be imported; an exception
 * names one known edge a rule lets through, with the reason it stands. Exceptions are folded into
 * the rules below, so `npx depcruise --config .dependency-cruiser.cjs shared` reports exactly what
 * the test reports; the test also fails when an exception no longer matches any import.
 */

/**
 * The kernel: the pure helpers every layer, the domain included, may import. Ids and timestamp
 * formatting live in shared/platform, great-circle distance in shared/geo; none of them imports
 * anything of the project.
 */
const KERNEL = ['^shared/platform/ids[.]ts$', '^shared/platform/time[.]ts$', '^shared/geo/distance[.]ts$'];

/** Every folder of the project's own code. */
const PROJECT =
  '^(bench|bin|clients|data|examples|functions|lib|local|scripts|shared|test|web|webhooks-receiver)/';

/** Packages that talk to AWS or the Lambda runtime, resolved (node_modules/…) or not. */
const AWS_PACKAGES =
  '(^|node_modules/)(@aws-sdk/|@smithy/|@aws-lambda-powertools/|@middy/|@types/aws-lambda/|aws-lambda/)';

/** Packages of the CDK app, which only bin/, lib/ and their tests load. */
const CDK_PACKAGES = '(^|node_modules/)(aws-cdk-lib|aws-cdk|constructs|cdk-nag)(/|$)';

/** Node built-ins without side effects: hashing and formatting. Anything else touches the world. */
const PURE_BUILTINS = '^(node:)?(crypto|util|buffer)$';

/** A test file, wherever it sits (local/*.test.ts beside the local stack). */
const TEST_FILE = '[.]test[.]ts$';

/** @type {Array<import('dependency-cruiser').IForbiddenRuleType>} */
const rules = [
  {
    name: 'no-cycles',
    comment: 'No module imports itself through others, type-only imports included.',
    from: {},
    to: { circular: true },
  },
  {
    name: 'domain-imports-only-the-kernel',
    comment: 'shared/domain imports only itself and the kernel (ids, time, distance).',
    from: { path: '^shared/domain/' },
    to: { path: PROJECT, pathNot: ['^shared/domain/', ...KERNEL] },
  },
  {
    name: 'domain-no-side-effects',
    comment: 'shared/domain imports no AWS, Lambda or middy package and no Node built-in with side effects.',
    from: { path: '^shared/domain/' },
    to: { path: [AWS_PACKAGES, CDK_PACKAGES] },
  },
  {
    name: 'domain-no-side-effect-builtins',
    comment: 'shared/domain uses only the pure Node built-ins (crypto, util, buffer).',
    from: { path: '^shared/domain/' },
    to: { dependencyTypes: ['core'], pathNot: PURE_BUILTINS },
  },
  {
    name: 'use-cases-no-aws',
    comment: 'shared/usecases reach AWS only through the stores and ports passed in.',
    from: { path: '^shared/usecases/' },
    to: { path: AWS_PACKAGES },
  },
  {
    name: 'no-test-code-outside-tests',
    comment: 'Only tests import test/ (helpers, fixtures, the drive simulator).',
    from: { pathNot: ['^test/', TEST_FILE] },
    to: { path: '^test/' },
  },
  {
    name: 'shared-imports-no-entry-point',
    comment: 'shared/ never imports an entry point or tool: functions/, lib/, bin/, local/, scripts/, …',
    from: { path: '^shared/' },
    to: { path: '^(bench|bin|clients|examples|functions|lib|local|scripts|test|web)/' },
  },
  {
    name: 'runtime-imports-no-cdk',
    comment: 'What runs in Lambda (functions/, shared/) imports nothing of the CDK app.',
    from: { path: '^(functions|shared)/' },
    to: { path: ['^lib/', '^bin/', CDK_PACKAGES] },
  },
  {
    name: 'wiring-is-the-top',
    comment: 'Only entry points (and tests) import the composition root, shared/wiring.',
    from: { path: '^shared/', pathNot: '^shared/wiring/' },
    to: { path: '^shared/wiring/' },
  },
  {
    name: 'handlers-reach-stores-through-use-cases',
    comment: 'functions/ import no store: a handler runs a use case, wired by shared/wiring.',
    from: { path: '^functions/' },
    to: { path: '^shared/store/' },
  },
  {
    name: 'contract-imports-no-use-case',
    comment: 'shared/api (the contract) sits below the use cases: they call its serializers, not it theirs.',
    from: { path: '^shared/api/' },
    to: { path: '^shared/usecases/' },
  },
  {
    name: 'store-imports-no-use-case',
    comment: 'A store imports no use case, contract or wiring.',
    from: { path: '^shared/store/' },
    to: { path: '^shared/(usecases|api|wiring|mcp|llms)/' },
  },
  {
    name: 'http-chain-only-above-use-cases',
    comment: 'shared/platform/http is the HTTP chain: use cases, stores, geo and the domain know no HTTP.',
    from: { path: '^shared/(usecases|store|geo|domain)/' },
    to: { path: '^shared/platform/http/' },
  },
  {
    name: 'platform-and-geo-below-the-features',
    comment: 'shared/platform and shared/geo import no store, use case, contract or wiring.',
    from: { path: '^shared/(platform|geo)/' },
    to: { path: '^shared/(store|usecases|api|wiring|mcp|llms)/' },
  },
  {
    name: 'geo-imports-no-http-chain',
    comment:
      'shared/platform/http builds on shared/platform; shared/geo and the rest of platform never import it.',
    from: { path: '^shared/(geo|platform)/', pathNot: '^shared/platform/http/' },
    to: { path: '^shared/platform/http/' },
  },
  {
    name: 'client-is-self-contained',
    comment: 'clients/typescript imports only itself and its packages: it ships on its own.',
    from: { path: '^clients/' },
    to: { path: PROJECT, pathNot: '^clients/' },
  },
  {
    name: 'receiver-is-standalone',
    comment: 'webhooks-receiver/ is the file integrators copy: Node built-ins only.',
    from: { path: '^webhooks-receiver/' },
    to: { dependencyTypesNot: ['core'] },
  },
];

/**
 * Checked by the test on the layers rather than by dependency-cruiser, whose folder cycles would
 * count the kernel's folders (shared/platform, shared/geo) as layers of their own.
 */
const layerRules = [
  {
    name: 'no-layer-cycles',
    comment:
      'No two layers import each other, directly or around a ring; the layers are the kernel, ' +
      'each folder of shared/ (shared/platform/http apart) and each top-level folder.',
  },
];

/**
 * Known edges a rule lets through, each with its reason. `from` and `to` are path patterns; keep
 * them as narrow as the edge.
 */
const exceptions = [
  {
    name: 'bench-runs-the-test-simulator',
    rule: 'no-test-code-outside-tests',
    from: '^bench/',
    to: '^test/support/(infrastructure|fleets|principals|seeded-random|drives/(generator|harness|figures|savings))[.]ts$',
    reason:
      'The bench measures the same drive simulator, seeded random and DynamoDB Local infrastructure ' +
      'the integration tests use, so its figures and the tests judge one model; moving that ' +
      'simulator out of test/ into a folder of its own is part of the feature-folder move.',
  },
  {
    name: 'client-re-exports-the-receiver',
    rule: 'client-is-self-contained',
    from: '^clients/typescript/src/webhooks[.]ts$',
    to: '^webhooks-receiver/index[.]ts$',
    reason:
      'The client re-exports the one standalone signature verifier (webhooks-receiver/index.ts) ' +
      'rather than keeping a second copy of the HMAC check that could drift from it.',
  },
  {
    name: 'contract-examples-run-the-use-cases',
    rule: 'contract-imports-no-use-case',
    from: '^shared/api/examples/(events|fuelings|integration|reports|sandbox)[.]ts$',
    to: '^shared/usecases/(webhook-test-samples|fuelings|integration-health|integration-health-history|integration-health-test|savings-report|sandbox-tools)[.]ts$',
    reason:
      'The published examples are computed by the use cases themselves (a report, a scorecard, a ' +
      'test delivery), so openapi.json can never show a body the code would not answer; only ' +
      'OpenAPI generation imports the examples, never a handler.',
  },
  {
    name: 'serializers-read-use-case-views',
    rule: 'contract-imports-no-use-case',
    from: '^shared/api/(serializers/(admin|sandbox)|openapi-webhooks)[.]ts$',
    to: '^shared/usecases/(readiness|sandbox-tools|webhook-delivery)[.]ts$',
    reason:
      'Type-only: these serializers take the view a use case returns (readiness, the sandbox ' +
      'snapshot, the delivery headers), which is built from store types; the views ' +
      'move beside their feature in the feature-folder move.',
  },
  {
    name: 'batch-items-validated-like-requests',
    rule: 'http-chain-only-above-use-cases',
    from: '^shared/usecases/(locations|fuelings)[.]ts$',
    to: '^shared/platform/http/batch-items[.]ts$',
    reason:
      'Batch routes validate each item inside the use case with the validator the HTTP chain runs on ' +
      'a whole body, so a refused row reads exactly as a refused request; that validator ' +
      '(http/validate.ts and its messages) leaves http/ in the feature-folder move.',
  },
  {
    name: 'catalog-import-checks-states-and-words-issues',
    rule: 'domain-imports-only-the-kernel',
    from: '^shared/domain/stations/catalog-import[.]ts$',
    to: '^shared/(geo/us-states|platform/http/issue-messages)[.]ts$',
    reason:
      'The station catalog import checks each row against state boundaries (geo) and words its zod ' +
      'issues as the API words them; it is an import pipeline rather than a pure rule and moves to ' +
      "the stations feature's use cases in the feature-folder move.",
  },
  {
    name: 'catalog-import-words-issues',
    rule: 'http-chain-only-above-use-cases',
    from: '^shared/domain/stations/catalog-import[.]ts$',
    to: '^shared/platform/http/issue-messages[.]ts$',
    reason: 'The same edge as catalog-import-checks-states-and-words-issues, seen by the HTTP-chain rule.',
  },
  {
    name: 'sandbox-trucks-drive-the-road-graph',
    rule: 'domain-imports-only-the-kernel',
    from: '^shared/domain/sandbox/(routes|truck)[.]ts$',
    to: '^shared/geo/(embedded-router|routing-engine|route-line)[.]ts$',
    reason:
      "The sandbox's demo trucks drive along routes of the embedded road graph; a simulation over " +
      'geo rather than a domain rule, it moves to the sandbox feature folder in the feature-folder move.',
  },
  {
    name: 'platform-words-routing-failures',
    rule: 'no-layer-cycles',
    from: '^shared/platform/domain-errors[.]ts$',
    to: '^shared/geo/routing-errors[.]ts$',
    reason:
      "The one place errors become problems words geo's routing failures too, while geo's Amazon " +
      'Location router takes its call limits from shared/platform/adapters; the wording moves ' +
      'beside the HTTP chain in the feature-folder move.',
  },
  {
    name: 'event-payloads-typed-by-published-schema',
    rule: 'domain-imports-only-the-kernel',
    from: '^shared/domain/event-payloads[.]ts$',
    to: '^shared/api/schemas/event-data[.]ts$',
    reason:
      "Type-only: each webhook payload builder is typed by its event's published data schema, so a " +
      'payload that drifts from the documented one does not compile.',
  },
];

/** A rule with its exceptions folded in: the rule minus each exception's edges. */
function withExceptions(rule) {
  const own = exceptions.filter((exception) => exception.rule === rule.name);
  if (own.length === 0) return [{ severity: 'error', ...rule }];
  const asList = (value) => (value === undefined ? [] : Array.isArray(value) ? value : [value]);
  return [
    {
      severity: 'error',
      ...rule,
      from: { ...rule.from, pathNot: [...asList(rule.from.pathNot), ...own.map((e) => e.from)] },
    },
    ...own.map((exception) => ({
      severity: 'error',
      ...rule,
      from: { ...rule.from, path: exception.from },
      to: { ...rule.to, pathNot: [...asList(rule.to.pathNot), exception.to] },
    })),
  ];
}

module.exports = {
  forbidden: rules.flatMap(withExceptions),
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['^clients/typescript/src/generated/'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.mts', '.js', '.mjs', '.cjs', '.json', '.d.ts'],
    },
  },
};

// Not part of dependency-cruiser's configuration (which allows no other keys): the rules and
// exceptions as written, for the test and the docs.
Object.defineProperty(module.exports, 'layering', {
  value: { rules, layerRules, exceptions, kernel: KERNEL },
});
