import { describe, expect, it, vi } from 'vitest';
import {
  healthFleet,
  requiredHealthFleet,
  scorecardOf,
} from '#shared/integration-health/usecases/integration-health.ts';
import { integrationTestResult } from '#shared/integration-health/usecases/integration-health-test.ts';
import { ApiError } from '#shared/platform/errors.ts';

const OWN = 'flt_own';
const GRANTED = 'flt_granted';
const deps = { fleets: { hasGrant: vi.fn(async (_p: string, fleetId: string) => fleetId === GRANTED) } };
const KEY_CREATED_AT = '2026-11-01T00:00:00.000000Z';
const companyKey = {
  ownerType: 'company' as const,
  partnerId: null,
  ownFleetId: OWN,
  keyCreatedAt: KEY_CREATED_AT,
};
const partnerKey = {
  ownerType: 'partner' as const,
  partnerId: 'ptn_1',
  ownFleetId: null,
  keyCreatedAt: KEY_CREATED_AT,
};

async function codeOf(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return error.code;
    throw error;
  }
  return 'resolved';
}

describe('which fleet a health call is about', () => {
  it('gives a company key its own fleet, named or not, and refuses another', async () => {
    const company = { principal: companyKey, actingFleetId: OWN };
    expect(await healthFleet(deps, company, undefined)).toBe(OWN);
    expect(await healthFleet(deps, company, OWN)).toBe(OWN);
    expect(await codeOf(healthFleet(deps, company, GRANTED))).toBe('fleet_scope_mismatch');
  });

  it('gives a partner the fleet of fleet_id when granted, of the header otherwise, and none without either', async () => {
    const bare = { principal: partnerKey, actingFleetId: null };
    expect(await healthFleet(deps, bare, GRANTED)).toBe(GRANTED);
    expect(await codeOf(healthFleet(deps, bare, 'flt_other'))).toBe('fleet_scope_mismatch');
    expect(await healthFleet(deps, bare, undefined)).toBeNull();
    expect(await codeOf(requiredHealthFleet(deps, bare, undefined))).toBe('fleet_header_required');

    const withHeader = { principal: partnerKey, actingFleetId: GRANTED };
    expect(await healthFleet(deps, withHeader, undefined)).toBe(GRANTED);
    expect(await healthFleet(deps, withHeader, GRANTED)).toBe(GRANTED);
    expect(await codeOf(healthFleet(deps, withHeader, 'flt_other'))).toBe('validation_failed');
  });
});

describe('the test call’s answer', () => {
  it('puts a step for each endpoint that did not answer 2xx first, then the scorecard’s, failures before warnings', () => {
    const card = scorecardOf(
      OWN,
      Date.parse('2026-11-23T12:00:00Z'),
      {
        vehiclesActive: 2,
        vehiclesReporting24h: 2,
        vehiclesWithFuelLevel: 2,
        vehiclesMissingProfile: 0,
        breadcrumbs: 1_440,
        breadcrumbsWithLevel: 1_440,
        rejectedItems: 0,
        gapMsSum: 1_438 * 120_000,
        gapCount: 1_438,
        webhooks: { activeEndpoints: 1, attempts: 0, succeeded: 0, failingEndpoints: 0 },
        vehiclesWithGuidance: 0,
        fuelingsRecent: 0,
        purchases: { reported: 0, verified: 0, unverified: 0, flagged: 0 },
        keyAgeDays: 400,
      },
      [],
    );
    const result = integrationTestResult(card, [
      {
        endpoint_id: 'whk_ok',
        url: 'https://a',
        event_type: 'guidance.updated',
        delivered: true,
        status_code: 200,
        latency_ms: 5,
        error: null,
      },
      {
        endpoint_id: 'whk_bad',
        url: 'https://b',
        event_type: 'guidance.updated',
        delivered: false,
        status_code: 500,
        latency_ms: 9,
        error: 'receiver answered 500',
      },
    ]);
    expect(result.next_steps.map((s) => [s.severity, s.check_id])).toEqual([
      ['high', 'webhook_delivery'],
      ['high', 'key_age'],
      ['medium', 'guidance_in_use'],
      ['medium', 'fuelings_reported'],
    ]);
    expect(result.next_steps[0]?.action).toContain('whk_bad');
  });
});
