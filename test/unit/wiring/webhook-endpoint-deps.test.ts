import { describe, expect, it } from 'vitest';
import { readConfig } from '../../../shared/platform/config.ts';
import { LOCAL_PRIVATE_TARGETS_HINT, webhookEndpointDeps } from '../../../shared/wiring/webhooks.ts';
import { testInfrastructure } from '../../support/infrastructure.ts';

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
    expect(webhookEndpointDeps(infra).privateTargetsHint).toBeUndefined();
    const local = { ...infra, config: { ...infra.config, localStack: true } };
    expect(webhookEndpointDeps(local).privateTargetsHint).toBe(LOCAL_PRIVATE_TARGETS_HINT);
  });
});
