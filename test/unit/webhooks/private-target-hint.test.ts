import { describe, expect, it } from 'vitest';
import type { WebhookEndpoint } from '../../../shared/domain/webhooks/endpoint.ts';
import { ApiError, ERROR_REGISTRY } from '../../../shared/platform/errors.ts';
import { fixedClock } from '../../../shared/platform/time.ts';
import type { WebhookEndpointStore } from '../../../shared/store/webhook-endpoints.ts';
import { createWebhookEndpoint } from '../../../shared/usecases/webhook-endpoints.ts';
import { LOCAL_PRIVATE_TARGETS_HINT } from '../../../shared/wiring/webhooks.ts';
import { COMPANY_FLEET_ID } from '../fixtures.ts';

/** Records what was created; a refused URL must never reach it. */
function recordingStore(): WebhookEndpointStore & { created: WebhookEndpoint[] } {
  const created: WebhookEndpoint[] = [];
  return {
    created,
    async create(endpoint) {
      created.push(endpoint);
    },
  } as WebhookEndpointStore & { created: WebhookEndpoint[] };
}

const resolve = async (host: string) => (host === 'localhost' ? ['127.0.0.1'] : ['93.184.216.34']);
const owner = { kind: 'fleet', fleetId: COMPANY_FLEET_ID } as const;

async function refusal(url: string, deps: { allowPrivateTargets: boolean; privateTargetsHint?: string }) {
  const endpoints = recordingStore();
  const outcome = await createWebhookEndpoint(
    { endpoints, clock: fixedClock(Date.UTC(2026, 10, 23)), resolve, ...deps },
    owner,
    { url, event_types: ['*'] },
  ).catch((error: unknown) => error);
  expect(endpoints.created).toEqual([]);
  expect(outcome).toBeInstanceOf(ApiError);
  return outcome as ApiError;
}

describe('a refused webhook url on the local stack', () => {
  const local = { allowPrivateTargets: false, privateTargetsHint: LOCAL_PRIVATE_TARGETS_HINT };

  it.each(['http://127.0.0.1:4000/hook', 'http://localhost:4000/hook', 'https://192.168.1.20/hook'])(
    'names the switch that would allow %s',
    async (url) => {
      const error = await refusal(url, local);

      expect(error.code).toBe('validation_failed');
      expect(error.hint).toBe(LOCAL_PRIVATE_TARGETS_HINT);
      expect(error.hint).toContain('npm start -- --allow-local-webhooks');
      expect(error.hint).toContain('WEBHOOK_ALLOW_PRIVATE_TARGETS=1');
    },
  );

  it('keeps the usual hint when no switch would help (credentials in the url)', async () => {
    const error = await refusal('https://user:secret@hooks.example.com/hook', local);

    expect(error.hint).toBe(ERROR_REGISTRY.validation_failed.hint);
  });

  it('keeps the usual hint on a deployed stage, which has no such switch', async () => {
    const error = await refusal('http://127.0.0.1:4000/hook', { allowPrivateTargets: false });

    expect(error.hint).toBe(ERROR_REGISTRY.validation_failed.hint);
  });
});
