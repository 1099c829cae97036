import { type ExamplesFor, exampleId, rejected } from '#shared/api/example.ts';
import { NOW } from '#shared/api/example-fixtures.ts';
import { ApiError } from '#shared/platform/errors.ts';
import type { keyOperations } from './operations.ts';
import { createKeyBody, productionAccessBody } from './schemas.ts';

// The owner of the company "Red River Freight" sets up its integration: a sandbox key for the
// dispatch backend, production access, then a live key.
const CREATED_AT = '2026-11-20T15:02:44.118000Z';
const keyId = exampleId('apiKey', CREATED_AT, 'red-river-dispatch-key');
const requestId = exampleId('productionAccess', '2026-11-20T15:10:03.402000Z', 'red-river-access');

const dispatchKey = {
  object: 'api_key',
  id: keyId,
  name: 'dispatch backend',
  owner_type: 'company',
  mode: 'test',
  scopes: ['vehicles:manage', 'locations:write', 'guidance:read', 'guidance:manage'],
  status: 'active',
  revoked_reason: null,
  plan: 'sandbox',
  created_at: CREATED_AT,
  expires_at: null,
  last_used_at: '2026-11-21T22:00:00.000000Z',
};

/** Example secrets in the real format (`svc_test_` + 32 base62 characters); never live ones. */
const secret = 'svc_test_4pWn8RkY1eTq7LzC3vXb9HmJ0sUf6GdA';
const rotatedSecret = 'svc_test_Zk3mQ9vT2xLr8YpN4cWd7HsB1uEa6JfG';

const accessRequest = {
  object: 'production_access_request',
  id: requestId,
  status: 'pending',
  use_case: 'Fuel guidance and savings reports for our 120 regional trucks in Texas and Oklahoma',
  expected_vehicles: 120,
  contact_email: 'it@redriverfreight.example',
  requested_at: '2026-11-20T15:10:03.402000Z',
  decided_at: null,
  plan: null,
  reason: null,
};

const missingKey = new ApiError('resource_not_found', `Key ${keyId} was not found.`);

export const keyExamples = {
  createKey: {
    request: {
      body: {
        owner_type: 'company',
        name: 'dispatch backend',
        scopes: dispatchKey.scopes,
        mode: 'test',
      },
    },
    responses: {
      201: { ...dispatchKey, last_used_at: null, secret, previous_secret_expires_at: null },
    },
    problem: rejected('body', createKeyBody, {
      name: 'dispatch backend',
      scopes: ['guidance:read'],
      mode: 'live',
    }),
  },
  listKeys: {
    request: { query: { limit: '25' } },
    responses: { 200: { data: [dispatchKey], next_cursor: null } },
    problem: rejected('query', undefined, { per_page: '10' }),
  },
  rotateKey: {
    request: { params: { id: keyId }, body: {} },
    responses: {
      200: {
        ...dispatchKey,
        secret: rotatedSecret,
        previous_secret_expires_at: '2026-11-22T22:26:10.123000Z',
      },
    },
    problem: new ApiError('resource_conflict', `Key ${keyId} is revoked; it cannot be rotated.`, {
      hint: 'create a new key with POST /v1/keys',
    }),
  },
  revokeKey: {
    request: { params: { id: keyId }, body: { reason: 'Dispatch backend replaced' } },
    responses: { 200: { ...dispatchKey, status: 'revoked', revoked_reason: 'Dispatch backend replaced' } },
    problem: missingKey,
  },
  requestProductionAccess: {
    request: {
      body: {
        use_case: accessRequest.use_case,
        expected_vehicles: 120,
        contact_email: accessRequest.contact_email,
      },
    },
    responses: { 202: accessRequest },
    problem: rejected('body', productionAccessBody, {
      use_case: 'trucks',
      expected_vehicles: 0,
      contact_email: 'it',
    }),
  },
  getProductionAccess: {
    responses: {
      200: {
        object: 'production_access',
        status: 'approved',
        plan: 'growth',
        reason: null,
        decided_at: NOW,
        live_fleet_id: exampleId('fleet', NOW, 'red-river-live'),
        request: { ...accessRequest, status: 'approved', decided_at: NOW, plan: 'growth' },
      },
    },
    problem: new ApiError(
      'resource_conflict',
      'Production access is for company accounts; partners are onboarded by the operator.',
      { hint: 'partner keys are issued live by the operator' },
    ),
  },
} satisfies ExamplesFor<typeof keyOperations>;
