import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  codeBlocks,
  fillPlaceholders,
  outputPattern,
  planShellBlock,
  typescriptFileName,
} from '../support/readme-blocks.ts';

/** The helpers of test/e2e/readme.test.ts, which runs every code block of the README as shown. */
const root = fileURLToPath(new URL('../../', import.meta.url));
const README = readFileSync(`${root}README.md`, 'utf8');
const ROUTE_ID = 'rte_01JD7ZK3M4N5P6Q7R8S9T0V1W2';

describe('codeBlocks', () => {
  it('finds each fenced block with its kind, text and line', () => {
    const markdown = [
      'Intro',
      '```sh',
      'npm test',
      '```',
      '',
      '```text',
      'output',
      '```',
      '```ts',
      'x;',
      '```',
    ].join('\n');

    expect(codeBlocks(markdown)).toEqual([
      { kind: 'shell', language: 'sh', text: 'npm test', line: 2 },
      { kind: 'output', language: 'text', text: 'output', line: 6 },
      { kind: 'typescript', language: 'ts', text: 'x;', line: 9 },
    ]);
  });

  it('refuses a language it can neither run nor call output, and an unclosed fence', () => {
    expect(() => codeBlocks('```js\nx\n```')).toThrow(
      /README.md:1: a `js` block; the README test runs sh, bash/,
    );
    expect(() => codeBlocks('```sh\nnpm test\n')).toThrow('README.md:1: the code block is never closed');
  });

  it('reads every block of the README', () => {
    const blocks = codeBlocks(README);

    expect(blocks.filter((block) => block.kind === 'shell').length).toBeGreaterThan(5);
    expect(blocks.filter((block) => block.kind === 'typescript')).toHaveLength(1);
  });

  it("finds the README's TypeScript block formatted as npm test's lint wants a file at the root", () => {
    // A reader saves it as first.ts at the repository's root, where `biome check .` sees it too.
    const [block] = codeBlocks(README).filter(({ kind }) => kind === 'typescript');
    const source = `${block?.text}\n`;
    const fixed = execFileSync(
      `${root}node_modules/.bin/biome`,
      ['check', '--write', `--stdin-file-path=${typescriptFileName(source)}`],
      { cwd: root, input: source, encoding: 'utf8' },
    );

    expect(fixed).toBe(source);
  });
});

describe('planShellBlock', () => {
  it('stands in for installing, starting the stack, the suite and the listener, comments aside', () => {
    expect(planShellBlock('npm install\nnpm start        # the whole service locally')).toEqual({
      standIns: ['installed', 'stack-running'],
    });
    expect(planShellBlock('npm test   # lint, types, tests')).toEqual({ standIns: ['suite-running'] });
    expect(planShellBlock('npm run webhooks:listen')).toEqual({ standIns: ['background'] });
  });

  it('runs any other block, comments and continuation lines included', () => {
    expect(planShellBlock('curl -s $BASE/v1/me \\\n  -H "$AUTH"   # who am I')).toEqual({ run: true });
    expect(planShellBlock('npm start -- --fresh')).toEqual({ run: true });
  });

  it('refuses a block that mixes a command it stands in for with one it runs', () => {
    expect(() => planShellBlock('npm start\ncurl -s $BASE/v1/me')).toThrow(
      'a block mixes `npm start` with commands the test runs: give it a block of its own',
    );
  });
});

describe('fillPlaceholders', () => {
  it('puts in the last id of that kind printed so far', () => {
    const printed = [`{"id":"rte_01JD7ZK3M4N5P6Q7R8S9T0V1W1"}`, `{"id":"${ROUTE_ID}"}`];

    expect(fillPlaceholders('curl -s $BASE/v1/routes/rte_… -H "$AUTH"  # the id', printed)).toBe(
      `curl -s $BASE/v1/routes/${ROUTE_ID} -H "$AUTH"  # the id`,
    );
  });

  it('leaves a block without placeholders as it is, and refuses one nobody printed an id for', () => {
    expect(fillPlaceholders('curl -s $BASE/v1/me', [])).toBe('curl -s $BASE/v1/me');
    expect(() => fillPlaceholders('curl $BASE/v1/webhooks/whk_…/test', [`{"id":"${ROUTE_ID}"}`])).toThrow(
      'whk_… stands for an id no earlier block printed',
    );
  });
});

describe('typescriptFileName', () => {
  it('reads the file name from the first line', () => {
    expect(typescriptFileName('// first.ts\nimport x from "y";')).toBe('first.ts');
    expect(() => typescriptFileName('import x from "y";')).toThrow(/must name its file/);
  });
});

describe('outputPattern', () => {
  it('matches a printed line like the example: … any word, digits any number', () => {
    const pattern = outputPattern(
      '17:42:10 ✓ guidance.updated evt_… #5 · vehicle TRUCK-042 (veh_…) · change: cleared',
    );

    expect(
      pattern.test(
        '09:01:02 ✓ guidance.updated evt_01JD7 #12 · vehicle TRUCK-042 (veh_01JD) · change: cleared',
      ),
    ).toBe(true);
    expect(
      pattern.test(
        '09:01:02 ✓ guidance.updated evt_01JD7 #12 · vehicle TRUCK-042 (veh_01JD) · change: created',
      ),
    ).toBe(false);
  });
});
