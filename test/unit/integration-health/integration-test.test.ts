import { describe, expect, it, vi } from 'vitest';
import {
  type IntegrationTestDeps,
  runIntegrationTest,
  TEST_SENDS_AT_ONCE,
} from '#shared/integration-health/usecases/integration-health-test.ts';
import type { WebhookSendResult } from '#shared/platform/webhook-sender.ts';
import type { WebhookEndpoint } from '#shared/webhooks/domain/endpoint.ts';
import type { WebhookEndpointStore } from '#shared/webhooks/store/webhook-endpoints.ts';

const NOW = Date.parse('2026-11-23T12:00:00Z');
const DAY_MS = 86_400_000;
const FLEET = 'flt_health';
const caller = {
  principal: { ownerType: 'company' as const, partnerId: null, ownFleetId: FLEET },
  actingFleetId: FLEET,
};

const endpoint = (id: string, overrides: Partial<WebhookEndpoint> = {}): WebhookEndpoint => ({
  id,
  owner: { kind: 'fleet', fleetId: FLEET },
  url: `https://receiver.test/${id}`,
  eventTypes: ['*'],
  description: null,
  status: 'active',
  disabledReason: null,
  secrets: [{ value: 'whsec_current', expiresAtMs: null }],
  consecutiveFailedDeliveries: 0,
  healthySinceMs: NOW - DAY_MS,
  createdAt: '2026-10-01T00:00:00.000000Z',
  updatedAt: '2026-10-01T00:00:00.000000Z',
  ...overrides,
});

/** An endpoint store in memory whose writes behave as the real one's (recordExhausted may disable). */
function memoryEndpoints(endpoints: WebhookEndpoint[]) {
  const store = {
    create: vi.fn(async (e: WebhookEndpoint) => void endpoints.push(e)),
    get: vi.fn(async (_owner, id: string) => endpoints.find((e) => e.id === id) ?? null),
    save: vi.fn(async (e: WebhookEndpoint) => {
      endpoints.splice(
        endpoints.findIndex((x) => x.id === e.id),
        1,
        e,
      );
      return true;
    }),
    recordSuccess: vi.fn(async () => undefined),
    recordExhausted: vi.fn(async (_owner, id: string, shouldDisable) => {
      const found = endpoints.find((e) => e.id === id) as WebhookEndpoint;
      found.consecutiveFailedDeliveries += 1;
      const reason = shouldDisable(found.consecutiveFailedDeliveries, found.healthySinceMs);
      if (reason) Object.assign(found, { status: 'disabled', disabledReason: reason });
      return found.consecutiveFailedDeliveries;
    }),
    delete: vi.fn(async () => true),
    list: vi.fn(async () => ({ data: endpoints, next_cursor: null })),
    all: vi.fn(async () => endpoints.map((e) => ({ ...e }))),
  } satisfies Record<keyof WebhookEndpointStore, unknown>;
  return store as typeof store & WebhookEndpointStore;
}

function depsWith(
  endpoints: WebhookEndpoint[],
  send: (url: string) => Promise<WebhookSendResult>,
): IntegrationTestDeps & { endpoints: ReturnType<typeof memoryEndpoints> } {
  return {
    counters: { hours: async () => [] },
    fleetState: {
      vehicleState: async () => ({
        vehiclesActive: 0,
        vehiclesMissingProfile: 0,
        vehiclesReporting: 0,
        vehiclesWithFuelLevel: 0,
        vehiclesWithGuidance: 0,
      }),
    },
    endpoints: memoryEndpoints(endpoints),
    savingsDays: { fleetDays: async () => [] },
    fleets: { hasGrant: async () => true, listGranted: async () => ({ data: [], next_cursor: null }) },
    now: () => NOW,
    send: (url) => send(url),
  } as IntegrationTestDeps & { endpoints: ReturnType<typeof memoryEndpoints> };
}

const answered = (statusCode: number): WebhookSendResult => ({
  statusCode,
  ok: statusCode < 300,
  error: statusCode < 300 ? null : `HTTP ${statusCode}`,
  durationMs: 5,
});

describe('POST /v1/integration/test', () => {
  it('sends in parallel and reports an endpoint that did not answer by the deadline as such', async () => {
    const endpoints = [endpoint('whk_fast'), endpoint('whk_hangs'), endpoint('whk_also_fast')];
    let inFlight = 0;
    let mostInFlight = 0;
    const send = async (url: string) => {
      inFlight += 1;
      mostInFlight = Math.max(mostInFlight, inFlight);
      // The slow receiver never answers; the others answer once all three sends have started.
      await new Promise((resolve) => setImmediate(resolve));
      if (url.endsWith('whk_hangs')) return new Promise<WebhookSendResult>(() => {});
      inFlight -= 1;
      return answered(204);
    };
    const result = await runIntegrationTest(depsWith(endpoints, send), caller, {}, true, 50);
    expect(mostInFlight).toBe(3);
    expect(result.endpoints.map((e) => [e.endpoint_id, e.delivered, e.error])).toEqual([
      ['whk_fast', true, null],
      ['whk_hangs', false, "no answer within the integration test's 0.05 s"],
      ['whk_also_fast', true, null],
    ]);
    expect(result.next_steps[0]?.action).toContain('whk_hangs');
    expect(result.scorecard.fleet_id).toBe(FLEET);
  });

  it(`sends at most ${TEST_SENDS_AT_ONCE} at once; those whose turn never came say they were not sent`, async () => {
    const endpoints = Array.from({ length: TEST_SENDS_AT_ONCE + 2 }, (_, i) => endpoint(`whk_${i}`));
    let started = 0;
    const result = await runIntegrationTest(
      depsWith(endpoints, () => {
        started += 1;
        return new Promise<WebhookSendResult>(() => {});
      }),
      caller,
      {},
      true,
      50,
    );
    expect(started).toBe(TEST_SENDS_AT_ONCE);
    expect(result.endpoints.filter((e) => e.error?.startsWith('not sent'))).toHaveLength(2);
    expect(result.endpoints.every((e) => !e.delivered)).toBe(true);
  });

  it('never disables an endpoint: one at 4 failures and 6 days without success whose test send fails stays active', async () => {
    const failing = endpoint('whk_failing', {
      consecutiveFailedDeliveries: 4,
      healthySinceMs: NOW - 6 * DAY_MS,
    });
    const deps = depsWith([failing], async () => answered(500));
    const result = await runIntegrationTest(deps, caller, {}, true, 1_000);
    expect(result.endpoints[0]).toMatchObject({ delivered: false, status_code: 500 });
    const [after] = await deps.endpoints.all({ kind: 'fleet', fleetId: FLEET });
    expect(after).toMatchObject({ status: 'active', consecutiveFailedDeliveries: 4 });
    for (const write of ['save', 'recordExhausted', 'recordSuccess', 'delete'] as const) {
      expect(deps.endpoints[write]).not.toHaveBeenCalled();
    }
  });
});
