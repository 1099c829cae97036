import { describe, expect, it } from 'vitest';
import { fixedClock } from '#shared/kernel/time.ts';
import { ApiError, ERROR_REGISTRY } from '#shared/platform/errors.ts';
import type { WebhookTargetPolicy } from '#shared/platform/url-guard.ts';
import type { WebhookEndpoint } from '#shared/webhooks/domain/endpoint.ts';
import type { WebhookEndpointStore } from '#shared/webhooks/store/webhook-endpoints.ts';
import {
  createWebhookEndpoint,
  type WebhookEndpointDeps,
} from '#shared/webhooks/usecases/webhook-endpoints.ts';
import { localTargetsHint } from '#shared/webhooks/wiring/webhooks.ts';
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

const resolve = async (host: string) =>
  host === 'localhost' ? ['127.0.0.1'] : host === 'printer.local' ? ['192.168.1.30'] : ['93.184.216.34'];
const owner = { kind: 'fleet', fleetId: COMPANY_FLEET_ID } as const;

async function refusal(
  url: string,
  deps: Pick<WebhookEndpointDeps, 'targets' | 'widerTargetsHint'>,
): Promise<ApiError> {
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

/** The local stack's wiring, for a stack started with `targets`. */
const localStack = (targets: WebhookTargetPolicy) => ({
  targets,
  widerTargetsHint: (wider: WebhookTargetPolicy) => localTargetsHint(targets, wider),
});

describe('a refused webhook url on the local stack', () => {
  it.each(['https://192.168.1.20/hook', 'http://10.0.0.5:4000/hook', 'https://printer.local/hook'])(
    'by default (loopback targets): names the flag that would allow %s',
    async (url) => {
      const error = await refusal(url, localStack('loopback'));

      expect(error.code).toBe('validation_failed');
      expect(error.hint).toBe(localTargetsHint('loopback', 'private'));
      expect(error.hint).toContain('npm start -- --webhook-targets private');
      expect(error.hint).toContain('WEBHOOK_TARGETS=private');
    },
  );

  it.each(['http://127.0.0.1:4000/hook', 'http://localhost:4000/hook'])(
    'started with the deployed rule: says that plain npm start accepts %s',
    async (url) => {
      const error = await refusal(url, localStack('public'));

      expect(error.hint).toBe(localTargetsHint('public', 'loopback'));
      expect(error.hint).toContain('--webhook-targets public');
      expect(error.hint).toContain('plain `npm start`');
    },
  );

  it('keeps the usual hint when no policy would help (credentials in the url)', async () => {
    const error = await refusal('https://user:secret@hooks.example.com/hook', localStack('loopback'));

    expect(error.hint).toBe(ERROR_REGISTRY.validation_failed.hint);
  });

  it('keeps the usual hint on a deployed stage, which has no such switch', async () => {
    const error = await refusal('http://127.0.0.1:4000/hook', { targets: 'public' });

    expect(error.hint).toBe(ERROR_REGISTRY.validation_failed.hint);
  });
});

describe('an accepted webhook url on the local stack', () => {
  it('by default takes a receiver on this machine over http (npm run webhooks:listen)', async () => {
    const endpoints = recordingStore();
    const { endpoint } = await createWebhookEndpoint(
      { endpoints, clock: fixedClock(Date.UTC(2026, 10, 23)), resolve, ...localStack('loopback') },
      owner,
      { url: 'http://127.0.0.1:4000/webhooks', event_types: ['*'] },
    );

    expect(endpoint.url).toBe('http://127.0.0.1:4000/webhooks');
    expect(endpoints.created).toHaveLength(1);
  });
});
