import { type ChildProcess, execFile, spawn } from 'node:child_process';
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { isLocalTarget, loadCredentials } from '../support/credentials.ts';
import { api } from '../support/http-client.ts';
import {
  type CodeBlock,
  codeBlocks,
  fillPlaceholders,
  outputPattern,
  planShellBlock,
  typescriptFileName,
} from '../support/readme-blocks.ts';

/**
 * Every code block of README.md runs as shown, in order, as a newcomer runs them: at the root of a
 * checkout (a folder of links to this one) whose `.local/credentials.json` is the stack under
 * test's, so `npm start`'s stack is this one and the developer's own `.local/` is never touched.
 *
 * - `sh` blocks run in one shell session (variables carry over), each with `set -e`; `curl` fails
 *   on any 4xx or 5xx, so every call must answer as the README says it does.
 * - Commands a test cannot run as a reader does are stood in for (test/support/readme-blocks.ts):
 *   `npm install` (installed already), `npm start` (the stack under test is running), `npm test`
 *   (the suite is what runs), `npm run webhooks:listen` (started in the background, stopped with
 *   Ctrl-C at the end).
 * - A `whk_…` or `rte_…` in a block is the id of that kind an earlier block printed, as the
 *   README's comments tell the reader.
 * - A `ts` block is saved under the name its first line gives; a later block runs it.
 * - Some blocks carry a claim of the README's prose (CLAIMS): checked on what they printed.
 */
const root = fileURLToPath(new URL('../../', import.meta.url));
const blocks = codeBlocks(readFileSync(join(root, 'README.md'), 'utf8'));
const credentials = loadCredentials();

interface Printed {
  /** What the block printed (stdout). */
  output: string;
  /** What the listener printed so far, one line each. */
  listener: readonly string[];
}

/** Claims of the README's prose, checked on the block that contains `block`. */
const CLAIMS: { block: string; says: string; check: (printed: Printed) => Promise<void> | void }[] = [
  {
    block: '$BASE/v1/vehicles -H "$AUTH" -H "$JSON"',
    says: '201 with the vehicle',
    check: ({ output }) => {
      expect(output).toMatch(/"id":"veh_\w{26}"/);
      expect(output).toContain('"external_ref":"TRUCK-042"');
    },
  },
  {
    block: '$BASE/v1/locations',
    says: 'the breadcrumb is accepted, and the latest position is where it was sent',
    check: ({ output }) => {
      expect(output).toContain('"accepted":1,"rejected":0');
      expect(output).toContain('"latitude":32.7767');
    },
  },
  {
    block: 'ext:TRUCK-042/guidance -H "$AUTH" -H "$JSON"',
    says: "the session's phase is stop_recommended and stops[0] says how much to buy and why",
    check: ({ output }) => {
      expect(output).toContain('"phase":"stop_recommended"');
      expect(output).toMatch(/"gallons_to_buy":\d/);
      expect(output).toMatch(/"reason":"[^"]{20,}"/);
    },
  },
  {
    block: '/test -H "$AUTH"',
    says: 'the listener receives and verifies the test event',
    check: async ({ output }) => {
      expect(output).toContain('"delivered":true');
      const eventId = /"event":\{"id":"(evt_\w+)"/.exec(output)?.[1];
      await listenerLine(new RegExp(`✓ \\S+ ${eventId} .*\\(test\\)$`));
    },
  },
  {
    block: '-X DELETE $BASE/v1/vehicles/ext:TRUCK-042/guidance',
    says: 'the listener prints the real guidance.updated with change: cleared, as the README shows it',
    check: async () => {
      const example = blocks.find(
        (block) => block.kind === 'output' && block.text.includes('change: cleared'),
      );
      expect(example, 'the README shows the cleared line').toBeDefined();
      await listenerLine(outputPattern(example?.text ?? ''));
    },
  },
  {
    block: '$BASE/v1/routes -H "$AUTH"',
    says: 'a fuel-optimized route',
    check: ({ output }) => expect(output).toMatch(/"id":"rte_\w{26}".*"plan":\{"status":"\w+"/),
  },
  {
    block: 'npx tsx first.ts',
    says: 'the client plans a route and lists the vehicles',
    check: ({ output }) => {
      expect(output).toMatch(/^rte_\w{26}: [\d.]+ miles, plan \w+$/m);
      expect(output).toMatch(/^veh_\w{26} TRUCK-042$/m);
    },
  },
];

let view: string | undefined;
let listener: ChildProcess | undefined;
const listenerLines: string[] = [];

afterAll(() => {
  // Still running only when the test failed before its Ctrl-C.
  if (listener?.pid && listener.exitCode === null && listener.signalCode === null) {
    process.kill(-listener.pid, 'SIGKILL');
  }
  if (view) rmSync(view, { recursive: true, force: true });
});

/** A checkout to run the README in: links to this one's files, its own `.local/credentials.json`. */
function checkoutView(credentialsPath: string): string {
  const folder = mkdtempSync(join(tmpdir(), 'fleet-fuel-readme-'));
  for (const entry of readdirSync(root)) {
    if (entry !== '.local' && entry !== '.git') symlinkSync(join(root, entry), join(folder, entry));
  }
  mkdirSync(join(folder, '.local'));
  copyFileSync(credentialsPath, join(folder, '.local', 'credentials.json'));
  return folder;
}

/** Only what a shell in a fresh terminal has: none of the test runner's variables reach npm or the API. */
function terminalEnvironment(state: string): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    TMPDIR: process.env.TMPDIR ?? tmpdir(),
    LANG: 'C.UTF-8',
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    README_STATE: state,
  };
}

function runShell(script: string, cwd: string, env: NodeJS.ProcessEnv) {
  const session = [
    // -a exports what the block assigns, so the next block sees BASE, KEY… as the same terminal would.
    'set -e -a',
    '[ -f "$README_STATE" ] && . "$README_STATE"',
    // A call answering 4xx or 5xx fails the block, showing the answer.
    'curl() { command curl --fail-with-body --show-error "$@"; }',
    script,
    'export -p > "$README_STATE"',
  ].join('\n');
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    execFile('sh', ['-c', session], { cwd, env, timeout: 90_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

/** `npm run webhooks:listen` in its own process group, as a terminal runs it, so Ctrl-C reaches npm and its child. */
function startListener(cwd: string, env: NodeJS.ProcessEnv): ChildProcess {
  const child = spawn('npm', ['run', 'webhooks:listen'], {
    cwd,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let pending = '';
  const collect = (chunk: Buffer) => {
    pending += chunk.toString('utf8');
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    listenerLines.push(...lines);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  return child;
}

async function listenerLine(pattern: RegExp, timeoutMs = 20_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const line = listenerLines.find((printed) => pattern.test(printed));
    if (line) return line;
    if (Date.now() > deadline) {
      throw new Error(`the listener printed no line matching ${pattern}:\n${listenerLines.join('\n')}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const where = (block: CodeBlock) => `README.md:${block.line}`;

describe.runIf(isLocalTarget())('the README', () => {
  it('runs every code block as shown, and its claims hold', { timeout: 240_000 }, async () => {
    view = checkoutView(inject('e2eCredentialsPath'));
    const env = terminalEnvironment(join(view, '.local', 'readme-shell-state'));
    const printed: string[] = [];
    const claimed = new Set<string>();

    for (const block of blocks) {
      if (block.kind === 'output') continue;
      if (block.kind === 'typescript') {
        writeFileSync(join(view, typescriptFileName(block.text)), `${block.text}\n`);
        continue;
      }
      const plan = planShellBlock(block.text);
      if ('standIns' in plan) {
        if (plan.standIns.includes('background')) {
          listener = startListener(view, env);
          await listenerLine(/Listening on http:\/\/127\.0\.0\.1:\d+\/webhooks as endpoint whk_\w+/);
        }
        continue;
      }
      const script = fillPlaceholders(block.text, [...printed, listenerLines.join('\n')]);
      const run = await runShell(script, view, env);
      expect(run.code, `${where(block)} failed:\n${script}\n${run.stdout}\n${run.stderr}`).toBe(0);
      printed.push(run.stdout);
      for (const claim of CLAIMS.filter(({ block: marker }) => block.text.includes(marker))) {
        claimed.add(claim.block);
        await claim.check({ output: run.stdout, listener: listenerLines });
      }
    }

    expect(
      CLAIMS.filter((claim) => !claimed.has(claim.block)).map((claim) => claim.says),
      'claims whose block is gone from the README',
    ).toEqual([]);

    // Ctrl-C: the listener deletes its endpoint.
    expect(listener, 'the README starts npm run webhooks:listen').toBeDefined();
    const endpointId = /as endpoint (whk_\w+)/.exec(listenerLines.join('\n'))?.[1];
    const exited = new Promise((resolve) => listener?.once('exit', resolve));
    if (listener?.pid) process.kill(-listener.pid, 'SIGINT');
    await exited;
    await listenerLine(new RegExp(`Deleted endpoint ${endpointId}`));
    const gone = await api(credentials.base_url).get(`/v1/webhooks/${endpointId}`, {
      key: credentials.keys.company_live,
    });
    expect(gone.status, gone.text).toBe(404);
  });
});
