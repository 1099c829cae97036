import type { KeyMode } from '#shared/keys/domain/api-key.ts';
import type { Stage } from '#shared/platform/config.ts';
import { mcpTools, sandboxToolOperations } from '../api/mcp-tools.ts';

/** The simulator's tools (docs/sandbox.md), by tool name. */
export const SANDBOX_TOOL_NAMES: ReadonlySet<string> = new Set(
  sandboxToolOperations.map((operation) => mcpTools[operation].tool),
);

/**
 * The keys each stage takes (shared/platform/http/authenticate.ts): `svc_live_` on production,
 * `svc_test_` on the sandbox; the other kind is refused before any tool is listed.
 */
export const STAGE_KEY_MODE = { prod: 'live', sandbox: 'test' } as const satisfies Record<Stage, KeyMode>;

/** The sandbox tools exist only where a test key drives the simulator: the sandbox stage. */
export function showsSandboxTools(mode: KeyMode, stage: Stage): boolean {
  return mode === 'test' && stage === 'sandbox';
}

/** The tools tools/list shows a caller: every tool, less the simulator's unless it may drive it. */
export function visibleTools<T extends { name: string }>(exchange: {
  tools: readonly T[];
  sandboxTools: ReadonlySet<string>;
  principal: { mode: KeyMode };
  stage: Stage;
}): T[] {
  const simulator = showsSandboxTools(exchange.principal.mode, exchange.stage);
  return exchange.tools.filter((tool) => simulator || !exchange.sandboxTools.has(tool.name));
}
