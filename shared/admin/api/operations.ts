import { routeGroup } from '#shared/api/route-group.ts';
import type { RouteDefinition } from '#shared/platform/http/route-definition.ts';
import {
  accountParams,
  accountPlanSchema,
  apiKeySchema,
  apiKeyWithSecretSchema,
  approveBody,
  auditPage,
  auditQuery,
  createCompanyBody,
  createKeyBody,
  createPartnerBody,
  fuelTaxRateParams,
  fuelTaxRateSchema,
  fuelTaxRatesSchema,
  keyParams,
  onboardedAccountSchema,
  planList,
  planParams,
  planSchema,
  productionAccessPage,
  productionAccessParams,
  productionAccessQuery,
  productionAccessRequestSchema,
  putFuelTaxRateBody,
  putPlanBody,
  readinessSchema,
  reasonBody,
  setAccountPlanBody,
} from './schemas.ts';

/**
 * The operator API (`/admin/v1/…`): onboarding, production-access decisions, keys, plans, the
 * state diesel tax table and the audit trail. Its own table, apart from `routes`: the public openapi.json never lists it, CDK
 * deploys it on the production stage only (behind API Gateway's IAM authorizer), and the local
 * stack routes it on the production server only. admin-openapi.json documents it.
 */
const tagged = <const T extends string>(tag: T) =>
  routeGroup({
    tags: [tag],
    handlers: 'functions/admin',
    access: 'operator',
    scope: null,
    family: null,
    role: 'admin',
    idempotent: false,
  });

const accounts = tagged('Accounts');
const productionAccess = tagged('Production access');
const keys = tagged('Keys');
const plans = tagged('Plans');
const fuelTax = tagged('Fuel tax');

export const getAdminOpenApiOperation = /* @__PURE__ */ tagged('Discovery')({
  operationId: 'getAdminOpenApi',
  route: 'GET /admin/v1/openapi.json',
  summary: 'This OpenAPI 3.1 document',
  responses: [{ status: 200, description: 'OpenAPI 3.1 document; servers[0] is this stage.' }],
});

export const createPartnerOperation = /* @__PURE__ */ accounts({
  operationId: 'createPartner',
  route: 'POST /admin/v1/partners',
  summary: 'Onboard a partner: the account and its first owner key (live, every partner scope)',
  request: { body: createPartnerBody },
  responses: [
    {
      status: 201,
      description: 'The partner and its owner key; the secret is shown once',
      schema: onboardedAccountSchema,
    },
  ],
});

export const createCompanyOperation = /* @__PURE__ */ accounts({
  operationId: 'createCompany',
  route: 'POST /admin/v1/companies',
  summary: 'Onboard a company: the account, its sandbox twin and its first owner test key',
  description:
    'The company starts on the `sandbox` plan with a sandbox twin fleet (on the sandbox stage) holding the simulator’s trucks, and an owner `svc_test_` key with every company scope. Live keys follow approved production access.',
  request: { body: createCompanyBody },
  responses: [
    {
      status: 201,
      description: 'The company and its owner test key; the secret is shown once',
      schema: onboardedAccountSchema,
    },
  ],
});

export const setAccountPlanOperation = /* @__PURE__ */ accounts({
  operationId: 'setAccountPlan',
  route: 'PUT /admin/v1/accounts/{id}/plan',
  summary: "Set an account's plan and move every key of the account onto it",
  request: { params: accountParams, body: setAccountPlanBody },
  responses: [{ status: 200, description: 'The account on its new plan', schema: accountPlanSchema }],
});

export const listProductionAccessRequestsOperation = /* @__PURE__ */ productionAccess({
  operationId: 'listProductionAccessRequests',
  route: 'GET /admin/v1/production-access',
  summary: 'Production-access requests in one state (default pending), oldest first',
  request: { query: productionAccessQuery },
  responses: [{ status: 200, description: 'Requests', schema: productionAccessPage }],
});

export const approveProductionAccessOperation = /* @__PURE__ */ productionAccess({
  operationId: 'approveProductionAccess',
  route: 'POST /admin/v1/production-access/{id}/approve',
  summary: 'Approve a pending request with a plan; creates the live fleet the first time',
  request: { params: productionAccessParams, body: approveBody },
  responses: [{ status: 200, description: 'The approved request', schema: productionAccessRequestSchema }],
  errors: ['resource_conflict'],
});

export const denyProductionAccessOperation = /* @__PURE__ */ productionAccess({
  operationId: 'denyProductionAccess',
  route: 'POST /admin/v1/production-access/{id}/deny',
  summary: 'Deny a pending request with a reason (the company may ask again)',
  request: { params: productionAccessParams, body: reasonBody },
  responses: [{ status: 200, description: 'The denied request', schema: productionAccessRequestSchema }],
  errors: ['resource_conflict'],
});

export const revokeProductionAccessOperation = /* @__PURE__ */ productionAccess({
  operationId: 'revokeProductionAccess',
  route: 'POST /admin/v1/production-access/{id}/revoke',
  summary: 'Revoke approved access with a reason: every live key of the company is revoked',
  description:
    'Live keys then answer 401 `key_revoked` whose detail carries the reason; test keys and the sandbox twin are untouched.',
  request: { params: productionAccessParams, body: reasonBody },
  responses: [{ status: 200, description: 'The revoked request', schema: productionAccessRequestSchema }],
  errors: ['resource_conflict'],
});

export const createOperatorKeyOperation = /* @__PURE__ */ keys({
  operationId: 'createOperatorKey',
  route: 'POST /admin/v1/keys',
  summary: 'Create a key on an account and plan; the secret is shown once',
  description:
    'Any scope the account type allows (`fleets:manage` never on a company key). A company’s live key still needs approved production access (403 `production_access_required`).',
  request: { body: createKeyBody },
  responses: [
    { status: 201, description: 'The key with its one-time secret', schema: apiKeyWithSecretSchema },
  ],
  errors: ['production_access_required', 'resource_conflict'],
});

export const suspendKeyOperation = /* @__PURE__ */ keys({
  operationId: 'suspendKey',
  route: 'POST /admin/v1/keys/{id}/suspend',
  summary: 'Suspend a key: it answers 403 `key_suspended` until unsuspended',
  request: { params: keyParams },
  responses: [{ status: 200, description: 'The suspended key', schema: apiKeySchema }],
  errors: ['resource_conflict'],
});

export const unsuspendKeyOperation = /* @__PURE__ */ keys({
  operationId: 'unsuspendKey',
  route: 'POST /admin/v1/keys/{id}/unsuspend',
  summary: 'Reinstate a suspended key (a revoked key stays revoked: 409)',
  request: { params: keyParams },
  responses: [{ status: 200, description: 'The active key', schema: apiKeySchema }],
  errors: ['resource_conflict'],
});

export const revokeKeyAsOperatorOperation = /* @__PURE__ */ keys({
  operationId: 'revokeKeyAsOperator',
  route: 'POST /admin/v1/keys/{id}/revoke',
  summary: 'Revoke a key for good, with a reason (401 `key_revoked` afterwards)',
  request: { params: keyParams, body: reasonBody },
  responses: [{ status: 200, description: 'The revoked key', schema: apiKeySchema }],
});

export const listPlansOperation = /* @__PURE__ */ plans({
  operationId: 'listPlans',
  route: 'GET /admin/v1/plans',
  summary: 'Every plan, by name, with its effective enumeration-guard thresholds',
  responses: [{ status: 200, description: 'Plans', schema: planList }],
});

export const putPlanOperation = /* @__PURE__ */ plans({
  operationId: 'putPlan',
  route: 'PUT /admin/v1/plans/{name}',
  summary: 'Create or replace a plan; keys on it follow within a minute',
  request: { params: planParams, body: putPlanBody },
  responses: [{ status: 200, description: 'The plan as stored', schema: planSchema }],
});

export const listFuelTaxRatesOperation = /* @__PURE__ */ fuelTax({
  operationId: 'listFuelTaxRates',
  route: 'GET /admin/v1/fuel-tax-rates',
  summary:
    'The state diesel tax rates in force now, each with its source, and the rates scheduled for later quarters',
  description:
    'The table every price is made on under `fuel_tax_treatment: ifta`: the shipped rates with the rows operators stored over them. Read from the store, so a rate just stored shows here at once; pricing follows within a minute.',
  responses: [{ status: 200, description: 'The rates', schema: fuelTaxRatesSchema }],
});

export const putFuelTaxRateOperation = /* @__PURE__ */ fuelTax({
  operationId: 'putFuelTaxRate',
  route: 'PUT /admin/v1/fuel-tax-rates/{state}',
  summary: 'Store a state’s diesel tax rate from a quarter on; prices follow within a minute',
  description:
    'Replaces the shipped or stored rate of that state and quarter. `effective_from` may be a past quarter (a correction), the current one, or at most 4 quarters ahead; every change is in the audit trail (`fuel_tax_rate.set`).',
  request: { params: fuelTaxRateParams, body: putFuelTaxRateBody },
  responses: [{ status: 200, description: 'The rate as stored', schema: fuelTaxRateSchema }],
});

export const listAuditOperation = /* @__PURE__ */ tagged('Audit')({
  operationId: 'listAudit',
  route: 'GET /admin/v1/audit',
  summary: 'The audit trail, newest first: every operator and owner-key action on access',
  request: { query: auditQuery },
  responses: [{ status: 200, description: 'Entries', schema: auditPage }],
});

export const getReadinessOperation = /* @__PURE__ */ tagged('Operations')({
  operationId: 'getReadiness',
  route: 'GET /admin/v1/readiness',
  summary:
    'Whether the stage serves production data: its station catalog, price freshness, last price import and routing engine',
  description:
    '`ready` is false, with one sentence per problem in `problems`, when production serves the synthetic station catalog, when the newest price is older than `stale_after_hours` (the StationPricesStale alarm’s threshold) or of unknown age, or when the latest price file was refused after the served catalog was published. See docs/operations.md.',
  responses: [{ status: 200, description: 'The readiness report', schema: readinessSchema }],
});

export const adminOperations = {
  getAdminOpenApi: getAdminOpenApiOperation,
  createPartner: createPartnerOperation,
  createCompany: createCompanyOperation,
  setAccountPlan: setAccountPlanOperation,
  listProductionAccessRequests: listProductionAccessRequestsOperation,
  approveProductionAccess: approveProductionAccessOperation,
  denyProductionAccess: denyProductionAccessOperation,
  revokeProductionAccess: revokeProductionAccessOperation,
  createOperatorKey: createOperatorKeyOperation,
  suspendKey: suspendKeyOperation,
  unsuspendKey: unsuspendKeyOperation,
  revokeKeyAsOperator: revokeKeyAsOperatorOperation,
  listPlans: listPlansOperation,
  putPlan: putPlanOperation,
  listFuelTaxRates: listFuelTaxRatesOperation,
  putFuelTaxRate: putFuelTaxRateOperation,
  listAudit: listAuditOperation,
  getReadiness: getReadinessOperation,
} satisfies Record<string, RouteDefinition>;

export type AdminRouteName = keyof typeof adminOperations;
// Pure: otherwise every operator function would bundle the whole table through this list.
export const adminRouteList: readonly RouteDefinition[] = /* @__PURE__ */ Object.values(adminOperations);
