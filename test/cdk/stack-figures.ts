import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { type App, NestedStack, Stack } from 'aws-cdk-lib';

/** CloudFormation's per-template quotas (a template uploaded to S3, as `cdk deploy` does). */
export const CLOUDFORMATION_LIMITS = {
  resources: 500,
  parameters: 200,
  outputs: 200,
  mappings: 200,
  bytes: 1_000_000,
} as const;

export interface StackFigures {
  /** `FleetFuel-prod`, or `FleetFuel-prod › Trips` for a feature's nested stack. */
  template: string;
  resources: number;
  parameters: number;
  outputs: number;
  mappings: number;
  bytes: number;
}

/** The figures of every template an app synthesized into `outdir`, top-level stacks and nested ones. */
export function stackFigures(app: App, outdir: string): StackFigures[] {
  return app.node
    .findAll()
    .filter((construct): construct is Stack => Stack.isStack(construct))
    .map((stack) => {
      const file = join(outdir, stack.templateFile);
      const template = JSON.parse(readFileSync(file, 'utf8')) as Record<string, object | undefined>;
      const count = (section: string) => Object.keys(template[section] ?? {}).length;
      return {
        template: templateName(stack),
        resources: count('Resources'),
        parameters: count('Parameters'),
        outputs: count('Outputs'),
        mappings: count('Mappings'),
        bytes: statSync(file).size,
      };
    })
    .sort((a, b) => a.template.localeCompare(b.template));
}

function templateName(stack: Stack): string {
  if (!NestedStack.isNestedStack(stack)) return stack.stackName;
  const parent = stack.nestedStackParent as Stack;
  return `${parent.stackName} › ${stack.node.id.replace(/Feature$/, '')}`;
}

const COLUMNS = ['resources', 'parameters', 'outputs', 'mappings'] as const;

/** The figures as docs/deploy-checks.md's table rows (without the size, which moves with every edit). */
export function formatFigures(figures: readonly StackFigures[]): string {
  return figures
    .map((figure) => `| ${figure.template} | ${COLUMNS.map((column) => figure[column]).join(' | ')} |`)
    .join('\n');
}

/** The rows docs/deploy-checks.md lists under "Stack sizes", read back as figures. */
export function documentedFigures(repoRoot: string): Omit<StackFigures, 'bytes'>[] {
  const doc = readFileSync(join(repoRoot, 'docs/deploy-checks.md'), 'utf8');
  return [...doc.matchAll(/^\| (FleetFuel-[^|]+?) \| (\d+) \| (\d+) \| (\d+) \| (\d+) \|$/gm)].map((row) => ({
    template: row[1] as string,
    resources: Number(row[2]),
    parameters: Number(row[3]),
    outputs: Number(row[4]),
    mappings: Number(row[5]),
  }));
}
