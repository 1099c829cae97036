import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../../', import.meta.url));

describe('webhooks-receiver/index.ts', () => {
  it('imports nothing but node: builtins, so integrators can copy the file alone', () => {
    // Prepare
    const source = readFileSync(new URL('../../../webhooks-receiver/index.ts', import.meta.url), 'utf8');

    // Act
    const specifiers = [...source.matchAll(/^\s*(?:import|export)\b[^;]*?from\s+'([^']+)'/gm)].map(
      (match) => match[1],
    );
    const dynamic = [...source.matchAll(/\b(?:import|require)\s*\(/g)];

    // Assess
    expect(specifiers.length).toBeGreaterThan(0);
    for (const specifier of specifiers) expect(specifier).toMatch(/^node:/);
    expect(dynamic).toHaveLength(0);
  });
});

describe('examples/verify-webhook.ts', () => {
  it('runs: signs, POSTs to its own loopback receiver, verifies, and exits 0', {
    timeout: 30_000,
  }, async () => {
    // Act: execFile rejects on a non-zero exit code, which fails the test with the output.
    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'examples/verify-webhook.ts'], {
      cwd: root,
      timeout: 25_000,
    });

    // Assess
    expect(stdout).toContain('verified');
    expect(stdout).toContain('tampered delivery -> 400 no_matching_signature');
  });
});
