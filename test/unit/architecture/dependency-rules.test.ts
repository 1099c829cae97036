import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cruise, type ICruiseResult, type IForbiddenRuleType } from 'dependency-cruiser';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * The layering rules of `.dependency-cruiser.cjs` (docs/architecture.md#the-rules-the-build-enforces),
 * checked on the project's own code, and shown to bite on a miniature of the layout with
 * deliberate violations (test/fixtures/dependency-rules/).
 */

interface Exception {
  name: string;
  rule: string;
  from: string;
  to: string;
  reason: string;
}

interface Config {
  forbidden: IForbiddenRuleType[];
  options: Record<string, unknown>;
  layering: {
    rules: IForbiddenRuleType[];
    layerRules: { name: string; comment: string }[];
    exceptions: Exception[];
    kernel: string[];
  };
}

const config = createRequire(import.meta.url)('../../../.dependency-cruiser.cjs') as Config;

/** Every folder of code but test/: the rules about tests concern what imports them. */
const PROJECT_FOLDERS = [
  'bench',
  'bin',
  'clients',
  'examples',
  'functions',
  'lib',
  'local',
  'scripts',
  'shared',
  'web',
  'webhooks-receiver',
];

const FIXTURE = 'test/fixtures/dependency-rules';

async function cruiseWithRules(
  folders: string[],
  overrides: Record<string, unknown> = {},
): Promise<ICruiseResult> {
  const { output } = await cruise(
    folders,
    {
      ...config.options,
      ...overrides,
      validate: true,
      ruleSet: { forbidden: config.layering.rules.map((rule) => ({ severity: 'error', ...rule })) },
      outputType: 'json',
    },
    {},
    { tsConfig: extractTSConfig('tsconfig.json') },
  );
  return typeof output === 'string' ? (JSON.parse(output) as ICruiseResult) : output;
}

/** The violations no exception names: each edge must match one exception of its own rule. */
function unexcepted(result: ICruiseResult): ICruiseResult['summary']['violations'] {
  return result.summary.violations.filter(
    (violation) =>
      violation.cycle !== undefined || !isExcepted(violation.from, violation.to, violation.rule.name),
  );
}

/** One line a person can act on: the rule, the import, and what the rule is for. */
function describeViolations(result: ICruiseResult): string[] {
  const comments = new Map(config.layering.rules.map((rule) => [rule.name, rule.comment]));
  return unexcepted(result).map((violation) => {
    const path =
      violation.cycle?.map((step) => step.name).join(' → ') ?? `${violation.from} → ${violation.to}`;
    return `${violation.rule.name}: ${path} (${comments.get(violation.rule.name) ?? ''})`;
  });
}

/** The layers each feature folder has; shared/api and shared/wiring are the assembly of two of them. */
const FEATURE_LAYERS = new Set(['domain', 'usecases', 'store', 'api', 'wiring']);

/**
 * Each module's layer: the kernel; one of the feature layers, whichever feature it belongs to (the
 * stores of all features are one layer; the assembly of the routes, shared/api, belongs to the api
 * layer, and the composition root to the wiring); shared/platform/http and shared/platform/validation;
 * another folder of shared/ (or of a feature, e.g. shared/agents/mcp); else its top folder.
 */
function layerOf(path: string): string {
  if (config.layering.kernel.some((pattern) => new RegExp(pattern).test(path))) return 'kernel';
  const [top, folder, sub] = path.split('/');
  if (top !== 'shared' || folder === undefined) return top ?? path;
  if (folder === 'api' || folder === 'wiring') return `shared/*/${folder}`;
  if (folder === 'platform' && (sub === 'http' || sub === 'validation')) return `shared/platform/${sub}`;
  if (folder === 'platform' || folder === 'geo' || folder === 'table') return `shared/${folder}`;
  if (sub !== undefined && FEATURE_LAYERS.has(sub)) return `shared/*/${sub}`;
  if (sub === undefined || sub.endsWith('.ts')) return `shared/${folder}`;
  return `shared/${folder}/${sub}`;
}

function isExcepted(from: string, to: string, rule?: string): boolean {
  return config.layering.exceptions.some(
    (exception) =>
      (rule === undefined || exception.rule === rule) &&
      new RegExp(exception.from).test(from) &&
      new RegExp(exception.to).test(to),
  );
}

/** The project's own imports, module to module, with the kinds of import (type-only, …). */
function projectEdges(result: ICruiseResult): { from: string; to: string; types: string[] }[] {
  return result.modules
    .filter((module) => !module.coreModule && !module.source.includes('node_modules'))
    .flatMap((module) =>
      module.dependencies
        .filter((dependency) => !dependency.coreModule && !dependency.resolved.includes('node_modules'))
        .map((dependency) => ({
          from: module.source,
          to: dependency.resolved,
          types: dependency.dependencyTypes as string[],
        })),
    );
}

/** Layers that import each other, directly or around a ring (Tarjan's strongly connected components). */
function layerCycles(edges: { from: string; to: string }[]): string[][] {
  const graph = new Map<string, Set<string>>();
  for (const { from, to } of edges) {
    const [a, b] = [layerOf(from), layerOf(to)];
    if (!graph.has(a)) graph.set(a, new Set());
    if (!graph.has(b)) graph.set(b, new Set());
    if (a !== b && !isExcepted(from, to)) graph.get(a)?.add(b);
  }
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const components: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, index.size);
    low.set(node, index.get(node) as number);
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node) as number, low.get(next) as number));
      } else if (stack.includes(next)) {
        low.set(node, Math.min(low.get(node) as number, index.get(next) as number));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string | undefined;
      do {
        member = stack.pop();
        if (member !== undefined) component.push(member);
      } while (member !== node);
      if (component.length > 1) components.push(component.sort());
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return components;
}

describe('the layering rules on the project', () => {
  let result: ICruiseResult;

  beforeAll(async () => {
    // About 8 s of CPU for ~600 modules; a loaded 2-core machine stretches that three- or fourfold.
    result = await cruiseWithRules(PROJECT_FOLDERS);
  }, 120_000);

  it('finds the whole project', () => {
    expect(result.summary.totalCruised).toBeGreaterThan(500);
    expect(result.modules.map((module) => module.source)).toContain('shared/wiring/infrastructure.ts');
  });

  it('breaks no rule', () => {
    expect(describeViolations(result)).toEqual([]);
  });

  it('has no layers that import each other, known exceptions aside', () => {
    expect(layerCycles(projectEdges(result))).toEqual([]);
  });

  it('lets a "Type-only" exception through type-only imports alone', () => {
    const typeOnly = config.layering.exceptions.filter((exception) =>
      exception.reason.startsWith('Type-only'),
    );
    const valueImports = projectEdges(result)
      .filter((edge) =>
        typeOnly.some(
          (exception) => new RegExp(exception.from).test(edge.from) && new RegExp(exception.to).test(edge.to),
        ),
      )
      .filter((edge) => !edge.types.includes('type-only'))
      .map((edge) => `${edge.from} → ${edge.to}`);
    expect(typeOnly.length).toBeGreaterThan(0);
    expect(valueImports).toEqual([]);
  });

  it('keeps only exceptions that still match an import, each for a rule that exists, with a reason', () => {
    const ruleNames = new Set(
      [...config.layering.rules, ...config.layering.layerRules].map((rule) => rule.name),
    );
    const edges = projectEdges(result);
    const stale = config.layering.exceptions
      .filter(
        (exception) =>
          !ruleNames.has(exception.rule) ||
          exception.reason.length < 40 ||
          !edges.some(
            (edge) => new RegExp(exception.from).test(edge.from) && new RegExp(exception.to).test(edge.to),
          ),
      )
      .map((exception) => exception.name);
    expect(stale).toEqual([]);
  });
});

describe('docs/architecture.md', () => {
  it('names every rule and every exception in "The rules the build enforces"', () => {
    const doc = readFileSync(new URL('../../../docs/architecture.md', import.meta.url), 'utf8');
    const section = doc.split('## The rules the build enforces')[1]?.split('\n## ')[0] ?? '';
    const names = [
      ...config.layering.rules,
      ...config.layering.layerRules,
      ...config.layering.exceptions,
    ].map((entry) => entry.name);
    expect(names.filter((name) => !section.includes(`\`${name}\``))).toEqual([]);
  });
});

describe('layer cycles', () => {
  it('are found around a ring of layers, and not through the kernel', () => {
    expect(
      layerCycles([
        { from: 'shared/quotes/domain/plan.ts', to: 'shared/quotes/store/plans.ts' },
        { from: 'shared/quotes/store/plans.ts', to: 'shared/billing/usecases/quote.ts' },
        { from: 'shared/billing/usecases/quote.ts', to: 'shared/quotes/domain/plan.ts' },
        { from: 'shared/quotes/domain/plan.ts', to: 'shared/kernel/distance.ts' },
        { from: 'shared/geo/corridor.ts', to: 'shared/quotes/domain/plan.ts' },
      ]),
    ).toEqual([['shared/*/domain', 'shared/*/store', 'shared/*/usecases']]);
  });

  it('leave out a named exception', () => {
    expect(
      layerCycles([
        { from: 'shared/platform/domain-errors.ts', to: 'shared/geo/routing-errors.ts' },
        { from: 'shared/geo/amazon-location-router.ts', to: 'shared/platform/adapters/aws-call-limits.ts' },
      ]),
    ).toEqual([]);
    expect(
      layerCycles([
        { from: 'shared/platform/config.ts', to: 'shared/geo/routing-errors.ts' },
        { from: 'shared/geo/amazon-location-router.ts', to: 'shared/platform/adapters/aws-call-limits.ts' },
      ]),
    ).toEqual([['shared/geo', 'shared/platform']]);
  });
});

describe('the layering rules on a layout with deliberate violations', () => {
  it('report each forbidden import and nothing the rules allow', async () => {
    const result = await cruiseWithRules(['.'], { baseDir: FIXTURE, tsConfig: undefined });
    const reported = unexcepted(result)
      .map((violation) =>
        violation.cycle
          ? `${violation.rule.name}: ${violation.from} → ${violation.cycle.map((step) => step.name).join(' → ')}`
          : `${violation.rule.name}: ${violation.from} → ${violation.to}`,
      )
      .sort();
    expect(reported).toEqual(
      [
        'contract-imports-no-use-case: shared/quotes/api/serializer.ts → shared/quotes/usecases/quote.ts',
        'domain-imports-only-the-kernel: shared/quotes/domain/plan.ts → shared/geo/router.ts',
        'domain-no-side-effect-builtins: shared/quotes/domain/plan.ts → fs',
        'domain-no-side-effects: shared/quotes/domain/plan.ts → @aws-sdk/client-dynamodb',
        'handlers-reach-stores-through-use-cases: functions/handler.ts → shared/quotes/store/keys.ts',
        'http-chain-only-above-use-cases: shared/kernel/ids.ts → shared/platform/http/json.ts',
        'http-chain-only-above-use-cases: shared/quotes/usecases/quote.ts → shared/platform/http/json.ts',
        'kernel-imports-nothing: shared/kernel/ids.ts → shared/platform/http/json.ts',
        'no-cycles: shared/quotes/store/items.ts → shared/quotes/store/keys.ts → shared/quotes/store/items.ts',
        'no-feature-reaches-into-another-store: shared/quotes/usecases/quote.ts → shared/billing/store/ledger.ts',
        'no-test-code-outside-tests: bench/run.ts → test/support/fake-clock.ts',
        'no-test-code-outside-tests: shared/quotes/usecases/quote.ts → test/support/fake-clock.ts',
        'platform-and-geo-below-the-features: shared/geo/router.ts → shared/quotes/store/items.ts',
        'runtime-imports-no-cdk: functions/handler.ts → lib/stack.ts',
        'shared-imports-no-entry-point: shared/quotes/usecases/quote.ts → test/support/fake-clock.ts',
      ].sort(),
    );
  }, 60_000);
});
