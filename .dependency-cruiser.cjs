/**
 * The layering, written as rules dependency-cruiser checks on every `npm test`
 * (test/unit/architecture/dependency-rules.test.ts; docs/architecture.md#the-rules-the-build-enforces).
 *
 * Paths are relative to the repository root. A rule names what must not be imported; an exception
 * names one known edge a rule lets through, with the reason it stands. The test runs the rules as
 * written and matches each violation to one exception, edge by edge; it also fails when an exception
 * no longer matches any import. For the command line (`npx depcruise --config
 * .dependency-cruiser.cjs shared`) the exceptions are folded into the rules, more loosely: a file
 * an exception of a rule starts from may import any target of that rule's exceptions.
 */

/**
 * The kernel: the pure helpers every layer, the domain included, may import (ids, time, distance,
 * rounding, the domain's error types, the vocabulary of scopes). It imports nothing of the project.
 */
const KERNEL = ['^shared/kernel/'];

/** A feature's own folder and one of its layers: shared/<feature>/<layer>/. */
const FEATURE_DOMAIN = '^shared/[^/]+/domain/';
const FEATURE_USE_CASES = '^shared/[^/]+/usecases/';
const FEATURE_STORE = '^shared/[^/]+/store/';

/** Folders of shared/ below every feature: they import no feature, assembly or wiring. */
const BELOW_FEATURES = '^shared/(kernel|platform|geo|table)/';

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
    name: 'kernel-imports-nothing',
    comment: 'shared/kernel imports nothing of the project but itself.',
    from: { path: KERNEL },
    to: { path: PROJECT, pathNot: KERNEL },
  },
  {
    name: 'domain-imports-only-the-kernel',
    comment: "A feature's domain imports only domains and the kernel.",
    from: { path: FEATURE_DOMAIN },
    to: { path: PROJECT, pathNot: [FEATURE_DOMAIN, ...KERNEL] },
  },
  {
    name: 'domain-no-side-effects',
    comment: "A feature's domain imports no AWS, Lambda, middy or CDK package.",
    from: { path: FEATURE_DOMAIN },
    to: { path: [AWS_PACKAGES, CDK_PACKAGES] },
  },
  {
    name: 'domain-no-side-effect-builtins',
    comment: "A feature's domain uses only the pure Node built-ins (crypto, util, buffer).",
    from: { path: FEATURE_DOMAIN },
    to: { dependencyTypes: ['core'], pathNot: PURE_BUILTINS },
  },
  {
    name: 'use-cases-no-aws',
    comment: 'Use cases reach AWS only through the stores and ports passed in.',
    from: { path: FEATURE_USE_CASES },
    to: { path: AWS_PACKAGES },
  },
  {
    name: 'no-feature-reaches-into-another-store',
    comment:
      "A feature's domain, use cases, contract and store never call into another feature's store; " +
      'they may name its interface (type-only), and the wiring passes the store in.',
    from: { path: '^shared/([^/]+)/(domain|usecases|api|store)/' },
    to: { path: FEATURE_STORE, pathNot: '^shared/$1/store/', dependencyTypesNot: ['type-only'] },
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
    comment: "Only entry points, tests and other wiring import a feature's wiring or the composition root.",
    from: { path: '^shared/', pathNot: '^shared/(wiring|[^/]+/wiring)/' },
    to: { path: '^shared/(wiring|[^/]+/wiring)/' },
  },
  {
    name: 'handlers-reach-stores-through-use-cases',
    comment: "functions/ import no store: a handler runs a use case, wired by the feature's wiring.",
    from: { path: '^functions/' },
    to: { path: [FEATURE_STORE, '^shared/table/'] },
  },
  {
    name: 'contract-imports-no-use-case',
    comment:
      "The API contract (each feature's api/, shared/api) sits below the use cases: they call its serializers, not it theirs.",
    from: { path: '^shared/(api|[^/]+/api)/' },
    to: { path: FEATURE_USE_CASES },
  },
  {
    name: 'store-imports-no-use-case',
    comment: 'A store imports no use case, contract or wiring.',
    from: { path: FEATURE_STORE },
    to: { path: ['^shared/[^/]+/(usecases|api|wiring)/', '^shared/(api|wiring)/', '^shared/agents/'] },
  },
  {
    name: 'http-chain-only-above-use-cases',
    comment:
      'shared/platform/http is the HTTP chain: use cases, stores, geo, the table and the domain know no HTTP.',
    from: { path: ['^shared/[^/]+/(usecases|store|domain)/', '^shared/(geo|table|kernel)/'] },
    to: { path: '^shared/platform/http/' },
  },
  {
    name: 'platform-and-geo-below-the-features',
    comment:
      "shared/platform, shared/geo and shared/table import no feature's use cases, store, contract or " +
      "wiring, nor the assembly: a feature's domain at most (the HTTP chain speaks keys and plans).",
    from: { path: BELOW_FEATURES },
    to: { path: '^shared/', pathNot: [BELOW_FEATURES, FEATURE_DOMAIN] },
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
      'the integration tests use, so its figures and the tests judge one model of a drive.',
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
    from: '^shared/(events|fuelings|integration-health|reports|sandbox)/api/examples[.]ts$',
    to: '^shared/(webhooks|fuelings|integration-health|reports|sandbox)/usecases/(webhook-test-samples|fuelings|integration-health|integration-health-history|integration-health-test|savings-report|sandbox-tools)[.]ts$',
    reason:
      'The published examples are computed by the use cases themselves (a report, a scorecard, a ' +
      'test delivery), so openapi.json can never show a body the code would not answer; only ' +
      'OpenAPI generation imports the examples, never a handler.',
  },
  {
    name: 'serializers-read-use-case-views',
    rule: 'contract-imports-no-use-case',
    from: '^shared/(admin/api/serializers|sandbox/api/serializers|webhooks/api/openapi-webhooks)[.]ts$',
    to: '^shared/(admin/usecases/readiness|sandbox/usecases/sandbox-tools|webhooks/usecases/webhook-delivery)[.]ts$',
    reason:
      'Type-only: these serializers take the view a use case returns (readiness, the sandbox ' +
      'snapshot, the delivery headers), which the use case builds from what it read; the view is ' +
      'its answer, so it is declared beside it.',
  },
  {
    name: 'catalog-import-checks-states-and-words-issues',
    rule: 'domain-imports-only-the-kernel',
    from: '^shared/stations/domain/catalog-import[.]ts$',
    to: '^shared/(geo/us-states|platform/validation/issue-messages)[.]ts$',
    reason:
      'The station catalog import checks each row against state boundaries (geo, whose shapes are a ' +
      'data file read once, node:fs) and words its zod issues as the API words them, so a refused row ' +
      'reads like a refused request; the price feed guards of the same domain folder build on its row checks.',
  },
  {
    name: 'sandbox-trucks-drive-the-road-graph',
    rule: 'domain-imports-only-the-kernel',
    from: '^shared/sandbox/domain/(demo-routes|truck)[.]ts$',
    to: '^shared/geo/(embedded-router|routing-engine|route-line)[.]ts$',
    reason:
      "The sandbox's demo trucks drive along routes of the embedded road graph: shared/geo's router " +
      'over the highway graph, a data file geo reads once (node:fs) on first use; given the graph, ' +
      'the simulation that moves them is a pure function of time.',
  },
  {
    name: 'platform-words-routing-failures',
    rule: 'no-layer-cycles',
    from: '^shared/platform/domain-errors[.]ts$',
    to: '^shared/geo/routing-errors[.]ts$',
    reason:
      "The one place errors become problems words geo's routing failures too, while geo's Amazon " +
      'Location router takes its call limits from shared/platform/adapters.',
  },
  {
    name: 'event-payloads-typed-by-published-schema',
    rule: 'domain-imports-only-the-kernel',
    from: '^shared/events/domain/event-payloads[.]ts$',
    to: '^shared/events/api/event-data-schemas[.]ts$',
    reason:
      "Type-only: each webhook payload builder is typed by its event's published data schema, so a " +
      'payload that drifts from the documented one does not compile.',
  },
  {
    name: 'one-transaction-records-the-event',
    rule: 'no-feature-reaches-into-another-store',
    from: '^shared/(fleets|sandbox)/store/(fleets|sandbox-simulations)[.]ts$',
    to: '^shared/events/store/events[.]ts$',
    reason:
      "A fleet's change and the event that records it are written in one DynamoDB transaction (and " +
      "a sandbox reset reads the fleet's events back), so these stores use the event store's keys and " +
      'item mapping, the one place an event item is shaped.',
  },
  {
    name: 'one-transaction-counts-the-savings-day',
    rule: 'no-feature-reaches-into-another-store',
    from: '^shared/(fuelings|guidance)/store/(fueling-recording|fueling-verdicts|recommended-stops)[.]ts$',
    to: '^shared/reports/store/savings-days[.]ts$',
    reason:
      "A matched fill and a recommended stop move the fleet's savings-day counters in the same " +
      'transaction that writes them, so the report never counts a fill that was not stored.',
  },
  {
    name: 'items-share-a-stored-attribute',
    rule: 'no-feature-reaches-into-another-store',
    from: '^shared/(vehicles|fleets)/store/(vehicles|fleets)[.]ts$',
    to: '^shared/(fleets/store/truck-profile-attribute|fuel-programs/store/fuel-program-attribute)[.]ts$',
    reason:
      'A vehicle and its fleet both store a truck profile, and a fleet stores its fuel program: one ' +
      "attribute mapping each, owned by the profile's and the program's feature, read by both items.",
  },
  {
    name: 'recommended-stops-name-the-vehicle',
    rule: 'no-feature-reaches-into-another-store',
    from: '^shared/(guidance)/store/recommended-stops[.]ts$',
    to: '^shared/vehicles/store/vehicle-refs[.]ts$',
    reason:
      "A recommended stop is recorded with the vehicle's external_ref, read through the vehicles " +
      "feature's short-lived reference reader so a burst of stops reads the vehicle once.",
  },
  {
    name: 'key-creation-checks-the-account',
    rule: 'no-feature-reaches-into-another-store',
    from: '^shared/(keys)/store/api-key-lifecycle[.]ts$',
    to: '^shared/accounts/store/accounts[.]ts$',
    reason:
      'A key is created in one transaction conditioned on its account item, so the key store names ' +
      "the account's key; a key can never outlive a deleted account.",
  },
];

/**
 * A rule with its exceptions folded in, for the command line: the rule minus the files its
 * exceptions start from, plus one rule for those files that lets through every target the rule's
 * exceptions name. The test is exact: it runs the rules as written and matches each violation to
 * one exception, edge by edge.
 */
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
      to: { ...rule.to, pathNot: [...asList(rule.to.pathNot), ...own.map((e) => e.to)] },
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
