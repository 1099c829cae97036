import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  decideProductionAccess,
  listProductionAccessRequests,
  requestProductionAccess,
} from '#shared/accounts/usecases/production-access.ts';
import { auditStore } from '#shared/accounts/wiring/audit.ts';
import { productionAccessDeps } from '#shared/accounts/wiring/production-access.ts';
import { createCompany, createPartner, setAccountPlan } from '#shared/admin/usecases/operator-accounts.ts';
import { createOperatorKey, setKeyStatusById } from '#shared/admin/usecases/operator-keys.ts';
import { operatorAccountDeps, planDeps } from '#shared/admin/wiring/admin.ts';
import { createFleetStore } from '#shared/fleets/store/fleets.ts';
import { hashApiKey } from '#shared/keys/domain/api-key.ts';
import { createKey } from '#shared/keys/usecases/api-keys.ts';
import { keyDeps } from '#shared/keys/wiring/keys.ts';
import { PLAN_CATALOG } from '#shared/plans/domain/plan-catalog.ts';
import { listPlans, putPlan } from '#shared/plans/usecases/plans.ts';
import { ApiError } from '#shared/platform/errors.ts';
import { tableStores } from '#shared/wiring/table-stores.ts';
import { createTestTable, deleteTestTable } from '#test/support/dynamodb.ts';
import { type TestInfrastructure, testInfrastructure } from '#test/support/infrastructure.ts';

// The operator use cases against DynamoDB Local, wired as the operator API's functions are: one
// table for production and the control plane (as the integration tests do), one for the sandbox.

let infra: TestInfrastructure;
let sandboxTable: string;
const OPERATOR = 'arn:aws:sts::123456789012:assumed-role/FleetFuelOperators/alice';
const provisioned: string[] = [];

const accountDeps = () => ({
  ...operatorAccountDeps(infra),
  provisionSimulatedTrucks: vi.fn(async (fleetId: string) => {
    provisioned.push(fleetId);
  }),
});

async function expectApiError(promise: Promise<unknown>, status: number, code: string) {
  const error = await promise.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ApiError);
  expect(error).toMatchObject({ status, code });
  return error as ApiError;
}

beforeAll(async () => {
  const base = testInfrastructure({ tableName: 'pending' });
  const tableName = await createTestTable(base.dynamo, 'operator');
  sandboxTable = await createTestTable(base.dynamo, 'operator-sandbox');
  const built = testInfrastructure({ tableName });
  infra = { ...built, config: { ...built.config, sandboxTableName: sandboxTable } };
  for (const plan of PLAN_CATALOG) await tableStores(infra).plans.put(plan);
});

afterAll(async () => {
  await deleteTestTable(infra.dynamo, infra.config.tableName);
  await deleteTestTable(infra.dynamo, sandboxTable);
});

describe('createCompany', () => {
  it('writes the account, its twin in the sandbox table (not production), calls the truck provisioning, issues a test owner key', async () => {
    const deps = accountDeps();
    const { account, key } = await createCompany(deps, OPERATOR, {
      name: 'Acme Freight',
      timezone: 'America/Chicago',
      contactEmail: 'owner@acme.example',
    });
    expect(account).toMatchObject({ type: 'company', planName: 'sandbox', liveFleetId: null });
    expect(await tableStores(infra).accounts.get(account.id)).toEqual(account);

    const sandboxFleets = createFleetStore(infra.client, sandboxTable, infra.cursors);
    expect(await sandboxFleets.get(account.sandboxFleetId as string)).toMatchObject({
      name: 'Acme Freight',
      timezone: 'America/Chicago',
      partnerId: null,
    });
    expect(await tableStores(infra).fleets.get(account.sandboxFleetId as string)).toBeNull();
    expect(deps.provisionSimulatedTrucks).toHaveBeenCalledExactlyOnceWith(account.sandboxFleetId);

    expect(key.key).toMatchObject({ mode: 'test', fleetId: account.sandboxFleetId, planName: 'sandbox' });
    expect(key.key.scopes).toContain('keys:manage');
    const stored = await tableStores(infra).apiKeys.findByHash(hashApiKey(key.secret));
    expect(stored?.keyId).toBe(key.key.keyId);
  });

  it('creates a partner with a live owner key holding every partner scope', async () => {
    const { account, key } = await createPartner(accountDeps(), OPERATOR, {
      name: 'Telematics Co',
      contactEmail: 'ops@telematics.example',
    });
    expect(account).toMatchObject({ type: 'partner', planName: 'starter' });
    expect(key.key).toMatchObject({ mode: 'live', partnerId: account.id });
    expect(key.key.scopes).toEqual(expect.arrayContaining(['fleets:manage', 'keys:manage']));
  });
});

describe('production access through the use cases', () => {
  it('deny → ask again → approve (live fleet once) → revoke (live keys revoked with the reason, test keys untouched)', async () => {
    const { account, key: owner } = await createCompany(accountDeps(), OPERATOR, {
      name: 'Approval Story',
      timezone: 'UTC',
      contactEmail: 'owner@story.example',
    });
    const access = productionAccessDeps(infra);
    const ask = () =>
      requestProductionAccess(access, owner.key.keyId, account.id, {
        useCase: 'fuel guidance for 40 trucks',
        expectedVehicles: 40,
        contactEmail: 'owner@story.example',
      });

    const first = await ask();
    const pending = await listProductionAccessRequests(access, 'pending', 100, undefined);
    expect(pending.data.map((request) => request.id)).toContain(first.id);
    // A second request while one is pending is a conflict.
    await expectApiError(ask(), 409, 'resource_conflict');

    const denied = await decideProductionAccess(access, OPERATOR, first.id, 'deny', {
      reason: 'tell us more',
    });
    expect(denied).toMatchObject({ status: 'denied', reason: 'tell us more', decidedBy: OPERATOR });
    await expectApiError(
      decideProductionAccess(access, OPERATOR, first.id, 'approve', { plan: 'growth' }),
      409,
      'resource_conflict',
    );

    const second = await ask();
    await expectApiError(
      decideProductionAccess(access, OPERATOR, second.id, 'approve', { plan: 'no-such-plan' }),
      422,
      'validation_failed',
    );
    const approved = await decideProductionAccess(access, OPERATOR, second.id, 'approve', { plan: 'growth' });
    expect(approved).toMatchObject({ status: 'approved', planName: 'growth' });
    const afterApproval = await tableStores(infra).accounts.get(account.id);
    expect(afterApproval).toMatchObject({ planName: 'growth', productionAccess: { status: 'approved' } });
    const liveFleetId = afterApproval?.liveFleetId as string;
    expect(await tableStores(infra).fleets.get(liveFleetId)).toMatchObject({ name: 'Approval Story' });

    const live = await createKey(keyDeps(infra), { type: 'operator', id: OPERATOR }, account.id, {
      ownerType: 'company',
      name: 'Live',
      scopes: ['vehicles:manage'],
      mode: 'live',
      expiresAt: null,
    });
    expect(live.key.fleetId).toBe(liveFleetId);

    await decideProductionAccess(access, OPERATOR, second.id, 'revoke', { reason: 'unpaid invoices' });
    const revokedSecret = await tableStores(infra).apiKeys.findByHash(hashApiKey(live.secret));
    expect(revokedSecret).toMatchObject({ status: 'revoked' });
    expect(revokedSecret?.revokedReason).toContain('unpaid invoices');
    expect(await tableStores(infra).apiKeys.findByHash(hashApiKey(owner.secret))).toMatchObject({
      status: 'active',
    });

    // Asking and approving again reuses the live fleet instead of creating a second one.
    const third = await ask();
    await decideProductionAccess(access, OPERATOR, third.id, 'approve', { plan: 'starter' });
    expect((await tableStores(infra).accounts.get(account.id))?.liveFleetId).toBe(liveFleetId);

    const trail = await auditStore(infra).list({ accountId: account.id }, 100, undefined);
    const actions = trail.data.map((entry) => entry.action);
    expect(actions).toEqual(
      expect.arrayContaining([
        'company.created',
        'production_access.requested',
        'production_access.denied',
        'production_access.approved',
        'production_access.revoked',
      ]),
    );
    expect(trail.data.find((entry) => entry.action === 'production_access.revoked')).toMatchObject({
      actor: { type: 'operator', id: OPERATOR },
      reason: 'unpaid invoices',
    });
  });
});

describe('plans and account plans', () => {
  it('puts and lists plans, records the change; an account plan moves every key of the account', async () => {
    const plan = {
      name: 'integration-gold',
      rateLimitPerMin: 900,
      monthlyQuota: { stations: 10 },
      stationQueryBudget: 50,
      priceQueryCap: 5,
      enumerationGuard: { maxDistinctCells: 90 },
    };
    await putPlan(planDeps(infra), OPERATOR, plan);
    expect((await listPlans(planDeps(infra))).find((listed) => listed.name === plan.name)).toEqual(plan);

    const { account, key: owner } = await createCompany(accountDeps(), OPERATOR, {
      name: 'Plan Mover',
      timezone: 'UTC',
      contactEmail: 'owner@mover.example',
    });
    const second = await createOperatorKey(operatorAccountDeps(infra), OPERATOR, {
      ownerType: 'company',
      accountId: account.id,
      planName: 'sandbox',
      scopes: ['vehicles:manage'],
      name: 'Second',
      mode: 'test',
      expiresAt: null,
    });
    const { keysMoved } = await setAccountPlan(operatorAccountDeps(infra), OPERATOR, account.id, plan.name);
    expect(keysMoved).toBe(2);
    for (const secret of [owner.secret, second.secret]) {
      expect((await tableStores(infra).apiKeys.findByHash(hashApiKey(secret)))?.planName).toBe(plan.name);
    }
    expect((await tableStores(infra).accounts.get(account.id))?.planName).toBe(plan.name);
    await expectApiError(
      setAccountPlan(operatorAccountDeps(infra), OPERATOR, account.id, 'no-such-plan'),
      422,
      'validation_failed',
    );

    await setKeyStatusById(keyDeps(infra), OPERATOR, second.key.keyId, 'suspended', null);
    const trail = await auditStore(infra).list({ accountId: account.id }, 100, undefined);
    expect(trail.data.map((entry) => entry.action)).toEqual(
      expect.arrayContaining(['account.plan_set', 'key.suspended', 'key.created']),
    );
    const everything = await auditStore(infra).list({}, 100, undefined);
    expect(everything.data.find((entry) => entry.target.id === plan.name)).toMatchObject({
      action: 'plan.created',
      actor: { type: 'operator', id: OPERATOR },
      details: { max_station_results: 5 },
    });
  });
});
