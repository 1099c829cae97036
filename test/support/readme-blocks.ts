/**
 * The README's fenced code blocks as the README test runs them (test/e2e/readme.test.ts): what
 * kind each is, which of its commands cannot run inside a test and how each is stood in for, and
 * the `whk_…`-style placeholders a reader fills in with an id an earlier block printed.
 */

export type BlockKind = 'shell' | 'typescript' | 'output';

export interface CodeBlock {
  kind: BlockKind;
  /** The fence's info string, e.g. `sh`. */
  language: string;
  text: string;
  /** 1-based line of the opening fence, for messages. */
  line: number;
}

const KINDS: Record<string, BlockKind> = {
  sh: 'shell',
  bash: 'shell',
  shell: 'shell',
  ts: 'typescript',
  typescript: 'typescript',
  text: 'output',
  json: 'output',
  '': 'output',
};

/**
 * The fenced blocks of a Markdown document, in order. A language the test cannot run nor knows to
 * be output throws: a new kind of block must not be skipped unnoticed.
 *
 * @example
 * codeBlocks('Run:\n```sh\nnpm test\n```\n'); // [{ kind: 'shell', language: 'sh', text: 'npm test', line: 2 }]
 */
export function codeBlocks(markdown: string): CodeBlock[] {
  const blocks: CodeBlock[] = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^(```|~~~)\s*([\w-]*)/.exec(lines[i] ?? '');
    if (!open) continue;
    const [, fence = '```', language = ''] = open;
    const end = lines.findIndex((line, j) => j > i && line.startsWith(fence));
    if (end === -1) throw new Error(`README.md:${i + 1}: the code block is never closed`);
    const kind = KINDS[language];
    if (!kind) {
      throw new Error(
        `README.md:${i + 1}: a \`${language}\` block; the README test runs ${Object.keys(KINDS)
          .filter((name) => KINDS[name] !== 'output')
          .join(', ')} blocks and treats ${Object.keys(KINDS)
          .filter((name) => name && KINDS[name] === 'output')
          .join(', ')} (or none) as output`,
      );
    }
    blocks.push({ kind, language, text: lines.slice(i + 1, end).join('\n'), line: i + 1 });
    i = end;
  }
  return blocks;
}

/**
 * Commands a test cannot run as a reader does, and what it does instead: the checkout is installed,
 * the stack under test is running, the suite is what runs, a listener runs until Ctrl-C.
 */
export type StandIn = 'installed' | 'stack-running' | 'suite-running' | 'background';

const STAND_INS: readonly (readonly [RegExp, StandIn])[] = [
  [/^npm (install|ci)$/, 'installed'],
  [/^npm start$/, 'stack-running'],
  [/^npm test$/, 'suite-running'],
  [/^npm run webhooks:listen$/, 'background'],
];

/** A shell line without its trailing comment and spaces (a `#` after a space starts one). */
function command(line: string): string {
  return line.replace(/(^|\s)#.*$/, '').trim();
}

/**
 * How to run a shell block: `run` it as a script, or stand in for each of its commands. A block
 * that mixes both throws: the test could not run it as shown.
 *
 * @example
 * planShellBlock('npm install\nnpm start   # prod on :3000'); // { standIns: ['installed', 'stack-running'] }
 * planShellBlock('curl -s $BASE/v1/me -H "$AUTH"'); // { run: true }
 */
export function planShellBlock(text: string): { run: true } | { standIns: StandIn[] } {
  const commands = text.split('\n').map(command).filter(Boolean);
  const standIns = commands.map((line) => STAND_INS.find(([pattern]) => pattern.test(line))?.[1]);
  if (standIns.every((standIn) => standIn === undefined)) return { run: true };
  if (standIns.every((standIn) => standIn !== undefined)) return { standIns: standIns as StandIn[] };
  const mixed = commands.filter((_, index) => standIns[index] !== undefined);
  throw new Error(
    `a block mixes ${mixed.map((line) => `\`${line}\``).join(', ')} with commands the test runs: give it a block of its own`,
  );
}

/** `whk_…`: a reader puts the id of that kind that an earlier step printed. */
const PLACEHOLDER = /\b([a-z]{2,5})_…/g;
const ID = (prefix: string) => new RegExp(`\\b${prefix}_[0-9A-HJKMNP-TV-Z]{26}\\b`, 'g');

/**
 * The block with each `<prefix>_…` replaced by the last id with that prefix in `printed` (what the
 * earlier blocks and the background commands printed, oldest first).
 *
 * @example
 * fillPlaceholders('curl $BASE/v1/routes/rte_…', ['{"id":"rte_01JD7ZK3M4N5P6Q7R8S9T0V1W2"}']);
 * // 'curl $BASE/v1/routes/rte_01JD7ZK3M4N5P6Q7R8S9T0V1W2'
 */
export function fillPlaceholders(text: string, printed: readonly string[]): string {
  return text.replace(PLACEHOLDER, (_, prefix: string) => {
    const ids = printed.flatMap((output) => output.match(ID(prefix)) ?? []);
    const last = ids.at(-1);
    if (!last) throw new Error(`${prefix}_… stands for an id no earlier block printed`);
    return last;
  });
}

/** The file a TypeScript block is saved as: its first line says so (`// first.ts`). */
export function typescriptFileName(text: string): string {
  const name = /^\/\/\s*([\w.-]+\.m?ts)\b/.exec(text)?.[1];
  if (!name) throw new Error('a ts block must name its file on its first line, e.g. `// first.ts`');
  return name;
}

/**
 * A pattern for lines like an output block's example line: `…` stands for any text without
 * spaces, a run of digits for any number, everything else is literal.
 *
 * @example
 * outputPattern('17:42:10 ✓ guidance.updated evt_… #5').test('09:01:02 ✓ guidance.updated evt_01J #12'); // true
 */
export function outputPattern(example: string): RegExp {
  const parts = example
    .trim()
    .split(/(…|\d+)/)
    .map((part) =>
      part === '…' ? '\\S*' : /^\d+$/.test(part) ? '\\d+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
    );
  return new RegExp(parts.join(''));
}
