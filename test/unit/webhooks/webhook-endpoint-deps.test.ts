import { describe, expect, it } from 'vitest';
import { readConfig } from '#shared/platform/config.ts';
import { localTargetsHint, webhookEndpointDeps } from '#shared/webhooks/wiring/webhooks.ts';
import { testInfrastructure } from '#test/support/infrastructure.ts';

const base = { TABLE_NAME: 't', CONTROL_TABLE_NAME: 'c', CURSOR_SIGNING_KEY: 'k' };

describe('the local-stack switch hint for webhook urls', () => {
  it('is on in the local stage servers only, never inside Lambda', () => {
    expect(readConfig({ ...base, LOCAL_PIPELINE: '1' }).localStack).toBe(true);
    expect(readConfig(base).localStack).toBe(false);
    expect(readConfig({ ...base, LOCAL_PIPELINE: '1', AWS_LAMBDA_FUNCTION_NAME: 'fn' }).localStack).toBe(
      false,
    );
  });

  it('reaches the webhook endpoint use cases through the wiring', () => {
    // Building the deps opens no connection: any endpoint will do.
    const infra = testInfrastructure({ tableName: 't', endpoint: 'http://127.0.0.1:9' });
    expect(webhookEndpointDeps(infra).widerTargetsHint).toBeUndefined();
    const local = {
      ...infra,
      config: { ...infra.config, localStack: true, webhookTargets: 'loopback' as const },
    };
    expect(webhookEndpointDeps(local).targets).toBe('loopback');
    expect(webhookEndpointDeps(local).widerTargetsHint?.('private')).toBe(
      localTargetsHint('loopback', 'private'),
    );
  });
});

describe('the webhook receivers a stage delivers to', () => {
  it('are public only inside Lambda, whatever the environment asks for', () => {
    for (const asked of [undefined, 'loopback', 'private']) {
      const env = { ...base, AWS_LAMBDA_FUNCTION_NAME: 'fn', LOCAL_PIPELINE: '1', WEBHOOK_TARGETS: asked };
      expect(readConfig(env).webhookTargets, String(asked)).toBe('public');
    }
  });

  it('are public outside the local stack, whatever the environment asks for', () => {
    expect(readConfig({ ...base, WEBHOOK_TARGETS: 'private' }).webhookTargets).toBe('public');
  });

  it("include this machine's receivers on the local stack by default, or what WEBHOOK_TARGETS says", () => {
    const local = { ...base, LOCAL_PIPELINE: '1' };
    expect(readConfig(local).webhookTargets).toBe('loopback');
    expect(readConfig({ ...local, WEBHOOK_TARGETS: '' }).webhookTargets).toBe('loopback');
    expect(readConfig({ ...local, WEBHOOK_TARGETS: 'public' }).webhookTargets).toBe('public');
    expect(readConfig({ ...local, WEBHOOK_TARGETS: 'private' }).webhookTargets).toBe('private');
    // A value nobody checked falls back to the strictest rule, never to a wider one.
    expect(readConfig({ ...local, WEBHOOK_TARGETS: 'everything' }).webhookTargets).toBe('public');
  });
});
