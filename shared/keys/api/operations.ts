import { routeGroup } from '#shared/api/route-group.ts';
import {
  createKeyBody,
  keyIdParams,
  keyPage,
  keySchema,
  keyWithSecretSchema,
  listKeysQuery,
  productionAccessBody,
  productionAccessRequestSchema,
  productionAccessSchema,
  revokeKeyBody,
  rotateKeyBody,
} from './schemas.ts';

// Owner calls: any key holding keys:manage, acting on its own account (no fleet), on either
// stage (both read the one control plane). Not metered: managing access is never quota-limited.
const ownerCalls = {
  tags: ['Keys'],
  handlers: 'functions/http/keys',
  access: 'key',
  scope: 'keys:manage',
  family: null,
  idempotent: false,
} as const;
// The calls that write keys or production-access requests run under their own role
// (`key-management`, lib/table-access.ts); the readers under `api`, which writes no key.
const ownerOperation = routeGroup({ ...ownerCalls, role: 'api' });
const keyWriterOperation = routeGroup({ ...ownerCalls, role: 'key-management' });

export const createKeyOperation = /* @__PURE__ */ keyWriterOperation({
  operationId: 'createKey',
  route: 'POST /v1/keys',
  summary: "Create a key on the caller's account; its secret is shown once",
  description:
    'A key never holds a scope its creator lacks, and `fleets:manage` never on a company key. A company without approved production access gets test keys only.',
  request: { body: createKeyBody },
  responses: [{ status: 201, description: 'The key with its one-time secret', schema: keyWithSecretSchema }],
  errors: ['production_access_required'],
});

export const listKeysOperation = /* @__PURE__ */ ownerOperation({
  operationId: 'listKeys',
  route: 'GET /v1/keys',
  summary: "List the account's keys, test and live (never a secret)",
  request: { query: listKeysQuery },
  responses: [{ status: 200, description: 'Keys, oldest first', schema: keyPage }],
});

export const rotateKeyOperation = /* @__PURE__ */ keyWriterOperation({
  operationId: 'rotateKey',
  route: 'POST /v1/keys/{id}/rotate',
  summary: 'Issue a new secret, shown once; the previous one stays valid for 24 hours',
  description:
    'With `{"expire_previous": true}` the previous secret stops at once. Only the secret just replaced gets the grace; an older one stops now. A revoked or expired key answers 409.',
  request: { params: keyIdParams, body: rotateKeyBody, bodyRequired: false },
  responses: [
    { status: 200, description: 'The key with its new one-time secret', schema: keyWithSecretSchema },
  ],
  errors: ['resource_conflict'],
});

export const revokeKeyOperation = /* @__PURE__ */ keyWriterOperation({
  operationId: 'revokeKey',
  route: 'POST /v1/keys/{id}/revoke',
  summary: 'Revoke a key at once; afterwards it answers 401 key_revoked',
  request: { params: keyIdParams, body: revokeKeyBody, bodyRequired: false },
  responses: [{ status: 200, description: 'The revoked key', schema: keySchema }],
});

export const requestProductionAccessOperation = /* @__PURE__ */ keyWriterOperation({
  operationId: 'requestProductionAccess',
  route: 'POST /v1/production-access',
  summary: 'Ask the operator for production access (company owners)',
  description:
    'From a test or live owner key. Answers 202: the operator approves it with a plan, or denies it with a reason. Once approved, create live keys with POST /v1/keys.',
  request: { body: productionAccessBody },
  responses: [{ status: 202, description: 'The pending request', schema: productionAccessRequestSchema }],
  errors: ['resource_conflict'],
});

export const getProductionAccessOperation = /* @__PURE__ */ ownerOperation({
  operationId: 'getProductionAccess',
  route: 'GET /v1/production-access',
  summary: "Where the company's production access stands",
  responses: [
    {
      status: 200,
      description: 'Status, plan, reason and the latest request',
      schema: productionAccessSchema,
    },
  ],
  errors: ['resource_conflict'],
});

export const keyOperations = {
  createKey: createKeyOperation,
  listKeys: listKeysOperation,
  rotateKey: rotateKeyOperation,
  revokeKey: revokeKeyOperation,
  requestProductionAccess: requestProductionAccessOperation,
  getProductionAccess: getProductionAccessOperation,
};
