import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface CfnLintFinding {
  level: 'Error' | 'Warning' | 'Informational';
  rule: string;
  template: string;
  message: string;
}

/**
 * cfn-lint over every template `cdk synth` wrote to `outdir`, or null when cfn-lint is not on the
 * machine (it is a Python tool, not an npm package: `pip install cfn-lint`).
 */
export function lintTemplates(outdir: string): CfnLintFinding[] | null {
  const templates = readdirSync(outdir).filter((name) => name.endsWith('.template.json'));
  const run = spawnSync('cfn-lint', ['--format', 'json', '--', ...templates], {
    cwd: outdir,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if ((run.error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT') return null;
  if (run.error) throw run.error;
  // Exit codes are a bit mask of the levels found (2 error, 4 warning, 8 informational); only a
  // run that printed no JSON failed as a run.
  const text = run.stdout.trim();
  if (!text.startsWith('[')) throw new Error(`cfn-lint failed (exit ${run.status}): ${run.stderr || text}`);
  const results = JSON.parse(text) as {
    Level: CfnLintFinding['level'];
    Rule: { Id: string };
    Filename: string;
    Message: string;
  }[];
  return results.map((result) => ({
    level: result.Level,
    rule: result.Rule.Id,
    template: result.Filename,
    message: result.Message,
  }));
}

/** Whether `cfn-lint` runs here: `npm test` lints the templates when it does (these machines have it). */
export function cfnLintInstalled(): boolean {
  return spawnSync('cfn-lint', ['--version'], { encoding: 'utf8' }).status === 0;
}

/** The warning rules docs/deploy-checks.md accepts, from its table's first column. */
export function acceptedWarnings(repoRoot: string): Set<string> {
  const doc = readFileSync(join(repoRoot, 'docs/deploy-checks.md'), 'utf8');
  return new Set([...doc.matchAll(/^\| `(W\d{4})` \|/gm)].map((match) => match[1] as string));
}
