import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Account, NO_PRODUCTION_ACCESS, SANDBOX_PLAN } from '#shared/accounts/domain/account.ts';
import {
  decideProductionAccess,
  describeProductionAccess,
  requestProductionAccess,
} from '#shared/accounts/usecases/production-access.ts';
import { auditStore } from '#shared/accounts/wiring/audit.ts';
import { productionAccessDeps } from '#shared/accounts/wiring/production-access.ts';
import { COMPANY_SCOPES, SCOPES } from '#shared/kernel/access.ts';
import { newId } from '#shared/kernel/ids.ts';
import { fixedClock } from '#shared/kernel/time.ts';
import { hashApiKey } from '#shared/keys/domain/api-key.ts';
import { createKey, type KeyActor, rotateKey, setKeyStatus } from '#shared/keys/usecases/api-keys.ts';
import { keyDeps } from '#shared/keys/wiring/keys.ts';
import { PLAN_CATALOG } from '#shared/plans/domain/plan-catalog.ts';
import { ApiError } from '#shared/platform/errors.ts';
import { authenticate } from '#shared/platform/http/authenticate.ts';
import { tableStores } from '#shared/wiring/table-stores.ts';
import { createTestTable, deleteTestTable, testDocumentClient } from '#test/support/dynamodb.ts';
import { testInfrastructure } from '#test/support/infrastructure.ts';

const admin = testDocumentClient();
let table: string;
const clock = fixedClock(Date.parse('2026-11-23T12:00:00Z'));
let infra: ReturnType<typeof testInfrastructure>;
const operator: KeyActor = { type: 'operator', id: 'operator:test' };
const HOUR = 3_600_000;

beforeAll(async () => {
  table = await createTestTable(admin, 'access');
  infra = testInfrastructure({ tableName: table, clock });
  for (const plan of PLAN_CATALOG) await tableStores(infra).plans.put(plan);
});
afterAll(() => deleteTestTable(admin, table));

/** A company as the operator creates it: a sandbox twin, no production access yet. */
async function newCompany(): Promise<Account> {
  const account: Account = {
    id: newId('company'),
    type: 'company',
    name: 'Prairie Haulers',
    contactEmail: 'ops@prairie.example',
    timezone: 'America/Chicago',
    planName: SANDBOX_PLAN,
    liveFleetId: null,
    sandboxFleetId: newId('fleet'),
    productionAccess: NO_PRODUCTION_ACCESS,
    createdAt: new Date(clock.now()).toISOString(),
  };
  expect(await tableStores(infra).accounts.create(account)).toBe(true);
  return account;
}

async function ownerKeyOf(account: Account) {
  return createKey(keyDeps(infra), operator, account.id, {
    ownerType: 'company',
    name: 'owner',
    scopes: [...COMPANY_SCOPES],
    mode: 'test',
    expiresAt: null,
  });
}

const authenticates = (
  secret: string,
  stage: 'prod' | 'sandbox' = secret.startsWith('svc_test_') ? 'sandbox' : 'prod',
) =>
  authenticate(`Bearer ${secret}`, stage, (hash) => tableStores(infra).apiKeys.findByHash(hash), {
    nowMs: clock.now(),
  });

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof ApiError)) throw new Error(`expected an ApiError, got ${String(error)}`);
  return error;
}

describe('keys in the control plane', () => {
  it('creates a test key on the sandbox twin that authenticates at once and lists without its secret', async () => {
    const company = await newCompany();
    const { key, secret } = await ownerKeyOf(company);

    const principal = await authenticates(secret);
    expect(principal).toMatchObject({
      keyId: key.keyId,
      accountId: company.id,
      ownFleetId: company.sandboxFleetId,
    });
    const page = await tableStores(infra).apiKeys.list(company.id, 10, undefined);
    expect(page.data.map((k) => k.keyId)).toEqual([key.keyId]);
    expect(JSON.stringify(page.data)).not.toContain(secret);
  });

  it('refuses a live key before production access (403), a scope the creator lacks, and fleets:manage on a company', async () => {
    const company = await newCompany();
    const { key: owner } = await ownerKeyOf(company);
    const ownerActor: KeyActor = { type: 'key', id: owner.keyId, scopes: ['guidance:read', 'keys:manage'] };
    const request = { ownerType: 'company' as const, name: 'x', mode: 'test' as const, expiresAt: null };

    const live = await failure(
      createKey(keyDeps(infra), operator, company.id, {
        ...request,
        scopes: ['guidance:read'],
        mode: 'live',
      }),
    );
    const escalation = await failure(
      createKey(keyDeps(infra), ownerActor, company.id, { ...request, scopes: ['webhooks:manage'] }),
    );
    const partnerOnly = await failure(
      createKey(keyDeps(infra), operator, company.id, { ...request, scopes: ['fleets:manage'] }),
    );
    const wrongOwner = await failure(
      createKey(keyDeps(infra), operator, company.id, {
        ...request,
        ownerType: 'partner',
        scopes: ['guidance:read'],
      }),
    );

    expect(live).toMatchObject({ code: 'production_access_required', status: 403 });
    expect(live.hint).toContain('POST /v1/production-access');
    expect(escalation).toMatchObject({
      code: 'insufficient_scope',
      extensions: { required_scope: 'webhooks:manage' },
    });
    expect(partnerOnly).toMatchObject({
      code: 'validation_failed',
      extensions: { errors: [{ field: 'scopes' }] },
    });
    expect(wrongOwner).toMatchObject({
      code: 'validation_failed',
      extensions: { errors: [{ field: 'owner_type' }] },
    });
  });

  it('rotates: the old secret works for 24 hours, then stops; a second rotation retires the older secret at once', async () => {
    const company = await newCompany();
    const { key, secret: first } = await ownerKeyOf(company);

    const { secret: second, previousSecretExpiresAt } = await rotateKey(
      keyDeps(infra),
      operator,
      company.id,
      key.keyId,
      {
        expirePrevious: false,
      },
    );
    expect(Date.parse(previousSecretExpiresAt) - clock.now()).toBe(24 * HOUR);
    await expect(authenticates(first)).resolves.toMatchObject({ keyId: key.keyId });
    await expect(authenticates(second)).resolves.toMatchObject({ keyId: key.keyId });

    clock.advance(24 * HOUR);
    expect(await failure(authenticates(first))).toMatchObject({ code: 'key_revoked' });
    await expect(authenticates(second)).resolves.toMatchObject({ keyId: key.keyId });

    const { secret: third } = await rotateKey(keyDeps(infra), operator, company.id, key.keyId, {
      expirePrevious: true,
    });
    expect(await failure(authenticates(second))).toMatchObject({ code: 'key_revoked' });
    await expect(authenticates(third)).resolves.toMatchObject({ keyId: key.keyId });
  });

  it('revocation reaches every secret that still works and carries its reason; rotating it then is 409', async () => {
    const company = await newCompany();
    const { key, secret: first } = await ownerKeyOf(company);
    const { secret: second } = await rotateKey(keyDeps(infra), operator, company.id, key.keyId, {
      expirePrevious: false,
    });

    await setKeyStatus(keyDeps(infra), operator, company.id, key.keyId, 'revoked', 'laptop stolen');

    for (const secret of [first, second]) {
      const refused = await failure(authenticates(secret));
      expect(refused).toMatchObject({ code: 'key_revoked', status: 401 });
      expect(refused.detail).toContain('laptop stolen');
    }
    expect(
      await failure(rotateKey(keyDeps(infra), operator, company.id, key.keyId, { expirePrevious: false })),
    ).toMatchObject({
      code: 'resource_conflict',
    });
    expect(
      await failure(setKeyStatus(keyDeps(infra), operator, company.id, key.keyId, 'active', null)),
    ).toMatchObject({
      code: 'resource_conflict',
    });
  });

  it('suspends and reinstates; a key of another account is 404', async () => {
    const company = await newCompany();
    const other = await newCompany();
    const { key, secret } = await ownerKeyOf(company);

    await setKeyStatus(keyDeps(infra), operator, company.id, key.keyId, 'suspended', null);
    expect(await failure(authenticates(secret))).toMatchObject({ code: 'key_suspended', status: 403 });
    await setKeyStatus(keyDeps(infra), operator, company.id, key.keyId, 'active', null);
    await expect(authenticates(secret)).resolves.toMatchObject({ keyId: key.keyId });

    expect(
      await failure(setKeyStatus(keyDeps(infra), operator, other.id, key.keyId, 'revoked', null)),
    ).toMatchObject({
      code: 'resource_not_found',
    });
  });

  it('expires a key at its expires_at, and refuses to rotate it afterwards', async () => {
    const company = await newCompany();
    const expiresAt = new Date(clock.now() + HOUR).toISOString();
    const { key, secret } = await createKey(keyDeps(infra), operator, company.id, {
      ownerType: 'company',
      name: 'one hour',
      scopes: ['guidance:read'],
      mode: 'test',
      expiresAt,
    });
    await expect(authenticates(secret)).resolves.toBeTruthy();
    clock.advance(HOUR);
    expect((await failure(authenticates(secret))).detail).toContain(expiresAt);
    expect(
      await failure(rotateKey(keyDeps(infra), operator, company.id, key.keyId, { expirePrevious: false })),
    ).toMatchObject({
      code: 'resource_conflict',
    });
  });

  it('stamps last_used_at once an hour, not per request', async () => {
    const company = await newCompany();
    const { key, secret } = await ownerKeyOf(company);
    const touch = (
      hash: string,
      record: Parameters<ReturnType<typeof tableStores>['apiKeys']['touch']>[1],
      nowMs: number,
    ) => tableStores(infra).apiKeys.touch(hash, record, nowMs);
    const use = () =>
      authenticate(`Bearer ${secret}`, 'sandbox', (hash) => tableStores(infra).apiKeys.findByHash(hash), {
        nowMs: clock.now(),
        touch,
      });

    await use();
    const firstStamp = (await tableStores(infra).apiKeys.get(company.id, key.keyId))?.lastUsedAt;
    clock.advance(10 * 60_000);
    await use();
    const unchanged = (await tableStores(infra).apiKeys.get(company.id, key.keyId))?.lastUsedAt;
    clock.advance(HOUR);
    await use();
    const later = (await tableStores(infra).apiKeys.get(company.id, key.keyId))?.lastUsedAt;

    expect(firstStamp).toBeTruthy();
    expect(unchanged).toBe(firstStamp);
    expect(Date.parse(later ?? '')).toBeGreaterThan(Date.parse(firstStamp ?? ''));
    expect((await tableStores(infra).apiKeys.findByHash(hashApiKey(secret)))?.lastUsedAt).toBe(later);
  });
});

describe('keys under concurrent changes (each change is conditioned on the version it read)', () => {
  it('two rotations within the grace: the first secret stops at the second, the second keeps its grace', async () => {
    const company = await newCompany();
    const { key, secret: first } = await ownerKeyOf(company);
    const { secret: second } = await rotateKey(keyDeps(infra), operator, company.id, key.keyId, {
      expirePrevious: false,
    });
    clock.advance(HOUR);
    const { secret: third } = await rotateKey(keyDeps(infra), operator, company.id, key.keyId, {
      expirePrevious: false,
    });

    expect(await failure(authenticates(first))).toMatchObject({ code: 'key_revoked' });
    await expect(authenticates(second)).resolves.toMatchObject({ keyId: key.keyId });
    await expect(authenticates(third)).resolves.toMatchObject({ keyId: key.keyId });
  });

  it('a revocation that read the key before a rotation still reaches the rotation’s new secret', async () => {
    const company = await newCompany();
    const { key } = await ownerKeyOf(company);
    const stale = await tableStores(infra).apiKeys.get(company.id, key.keyId);
    if (!stale) throw new Error('key not stored');
    const { secret: rotated } = await rotateKey(keyDeps(infra), operator, company.id, key.keyId, {
      expirePrevious: false,
    });

    // The store refuses a change based on the stale read, so nothing is half-applied …
    expect(await tableStores(infra).apiKeys.setStatus(stale, 'revoked', 'stale', clock.now())).toBeNull();
    await expect(authenticates(rotated)).resolves.toMatchObject({ keyId: key.keyId });
    // … and the use case re-reads and revokes every secret the key has now.
    await setKeyStatus(keyDeps(infra), operator, company.id, key.keyId, 'revoked', 'leaked');
    expect(await failure(authenticates(rotated))).toMatchObject({ code: 'key_revoked' });
  });

  it('a rotation that read the key before a suspension writes nothing', async () => {
    const company = await newCompany();
    const { key, secret } = await ownerKeyOf(company);
    const stale = await tableStores(infra).apiKeys.get(company.id, key.keyId);
    if (!stale) throw new Error('key not stored');
    await setKeyStatus(keyDeps(infra), operator, company.id, key.keyId, 'suspended', null);

    const fresh = `svc_test_${'Q'.repeat(32)}`;
    const rotated = await tableStores(infra).apiKeys.rotate(
      stale,
      hashApiKey(fresh),
      new Date(clock.now()).toISOString(),
      clock.now(),
    );

    expect(rotated).toBe(false);
    expect(await failure(authenticates(fresh))).toMatchObject({ code: 'invalid_api_key' });
    expect(await failure(authenticates(secret))).toMatchObject({ code: 'key_suspended' });
  });

  it('a narrower owner key cannot rotate or revoke a key holding scopes it lacks (403)', async () => {
    const company = await newCompany();
    const { key: broad } = await ownerKeyOf(company);
    const { key: narrow } = await createKey(keyDeps(infra), operator, company.id, {
      ownerType: 'company',
      name: 'narrow owner',
      scopes: ['keys:manage', 'guidance:read'],
      mode: 'test',
      expiresAt: null,
    });
    const actor: KeyActor = { type: 'key', id: narrow.keyId, scopes: narrow.scopes };

    const rotate = await failure(
      rotateKey(keyDeps(infra), actor, company.id, broad.keyId, { expirePrevious: false }),
    );
    const revoke = await failure(
      setKeyStatus(keyDeps(infra), actor, company.id, broad.keyId, 'revoked', null),
    );

    expect(rotate).toMatchObject({ code: 'insufficient_scope', status: 403 });
    expect(revoke).toMatchObject({ code: 'insufficient_scope', status: 403 });
    expect((await tableStores(infra).apiKeys.get(company.id, broad.keyId))?.status).toBe('active');
  });

  it('writes a live key only while the account’s production access is approved', async () => {
    const company = await newCompany();
    const { key } = await createKey(keyDeps(infra), operator, company.id, {
      ownerType: 'company',
      name: 't',
      scopes: ['guidance:read'],
      mode: 'test',
      expiresAt: null,
    });
    const live = { ...key, keyId: newId('apiKey'), mode: 'live' as const, fleetId: newId('fleet') };

    const written = await tableStores(infra).apiKeys.create(hashApiKey(`svc_live_${'R'.repeat(32)}`), live, {
      requireApprovedAccount: true,
    });

    expect(written).toBe(false);
    expect(await tableStores(infra).apiKeys.get(company.id, live.keyId)).toBeNull();
  });
});

describe('production access: the approval state machine', () => {
  const input = {
    useCase: 'Fuel guidance for 40 regional trucks',
    expectedVehicles: 40,
    contactEmail: 'it@prairie.example',
  };

  it('request → deny → request again → approve (live fleet created once, plan set) → live keys → revoke', async () => {
    const company = await newCompany();
    const { key: owner, secret: ownerSecret } = await ownerKeyOf(company);
    const deps = productionAccessDeps(infra);

    const first = await requestProductionAccess(deps, owner.keyId, company.id, input);
    expect(first.status).toBe('pending');
    expect(await failure(requestProductionAccess(deps, owner.keyId, company.id, input))).toMatchObject({
      code: 'resource_conflict',
    });
    const denied = await decideProductionAccess(deps, 'op', first.id, 'deny', { reason: 'tell us more' });
    expect(denied).toMatchObject({ status: 'denied', reason: 'tell us more' });
    expect(
      await failure(decideProductionAccess(deps, 'op', first.id, 'approve', { plan: 'growth' })),
    ).toMatchObject({
      code: 'resource_conflict',
    });

    const second = await requestProductionAccess(deps, owner.keyId, company.id, input);
    expect(
      await failure(decideProductionAccess(deps, 'op', second.id, 'approve', { plan: 'no-such-plan' })),
    ).toMatchObject({
      code: 'validation_failed',
    });
    await decideProductionAccess(deps, 'op', second.id, 'approve', { plan: 'growth' });
    const { account: approved } = await describeProductionAccess(deps, company.id);
    expect(approved.productionAccess.status).toBe('approved');
    expect(approved.planName).toBe('growth');
    expect(approved.liveFleetId).toMatch(/^flt_/);
    expect(await tableStores(infra).fleets.get(approved.liveFleetId ?? '')).toMatchObject({
      name: 'Prairie Haulers',
    });

    const live = await createKey(keyDeps(infra), operator, company.id, {
      ownerType: 'company',
      name: 'live',
      scopes: ['guidance:read'],
      mode: 'live',
      expiresAt: null,
    });
    expect(live.key).toMatchObject({ fleetId: approved.liveFleetId, planName: 'growth' });
    await expect(authenticates(live.secret)).resolves.toMatchObject({ ownFleetId: approved.liveFleetId });

    await decideProductionAccess(deps, 'op', second.id, 'revoke', { reason: 'unpaid invoices' });
    const revoked = await failure(authenticates(live.secret));
    expect(revoked).toMatchObject({ code: 'key_revoked' });
    expect(revoked.detail).toContain('unpaid invoices');
    // The company's test key is untouched by the revocation.
    await expect(authenticates(ownerSecret)).resolves.toMatchObject({ mode: 'test', keyId: owner.keyId });
    expect(
      await failure(
        createKey(keyDeps(infra), operator, company.id, {
          ownerType: 'company',
          name: 'live again',
          scopes: ['guidance:read'],
          mode: 'live',
          expiresAt: null,
        }),
      ),
    ).toMatchObject({ code: 'production_access_required' });

    // Asked again and approved again: the same live fleet, not a second one.
    const third = await requestProductionAccess(deps, owner.keyId, company.id, input);
    await decideProductionAccess(deps, 'op', third.id, 'approve', { plan: 'starter' });
    expect((await describeProductionAccess(deps, company.id)).account.liveFleetId).toBe(approved.liveFleetId);
  });

  it('two approvals at once: one answers 409, and the account keeps one live fleet', async () => {
    const company = await newCompany();
    const deps = productionAccessDeps(infra);
    const request = await requestProductionAccess(deps, 'key_x', company.id, input);

    const results = await Promise.allSettled([
      decideProductionAccess(deps, 'op', request.id, 'approve', { plan: 'growth' }),
      decideProductionAccess(deps, 'op', request.id, 'approve', { plan: 'growth' }),
    ]);

    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const { account } = await describeProductionAccess(deps, company.id);
    expect(account.liveFleetId).toMatch(/^flt_/);
    expect(await tableStores(infra).accounts.setLiveFleet(company.id, newId('fleet'))).toBe(false);
    expect((await describeProductionAccess(deps, company.id)).account.liveFleetId).toBe(account.liveFleetId);
  });

  it('denying or revoking needs a reason (422), and revoking again finishes the sweep', async () => {
    const company = await newCompany();
    const deps = productionAccessDeps(infra);
    const request = await requestProductionAccess(deps, 'key_x', company.id, input);
    expect(await failure(decideProductionAccess(deps, 'op', request.id, 'deny', {}))).toMatchObject({
      code: 'validation_failed',
    });
    await decideProductionAccess(deps, 'op', request.id, 'approve', { plan: 'growth' });
    const { secret } = await createKey(keyDeps(infra), operator, company.id, {
      ownerType: 'company',
      name: 'live',
      scopes: ['guidance:read'],
      mode: 'live',
      expiresAt: null,
    });
    await decideProductionAccess(deps, 'op', request.id, 'revoke', { reason: 'fraud' });

    // Again: the same request, nothing new to decide; every live key stays revoked.
    await expect(
      decideProductionAccess(deps, 'op', request.id, 'revoke', { reason: 'fraud' }),
    ).resolves.toMatchObject({
      status: 'revoked',
    });
    expect((await failure(authenticates(secret))).detail).toContain('fraud');
  });

  it('two requests filed at once: exactly one is pending', async () => {
    const company = await newCompany();
    const deps = productionAccessDeps(infra);
    const results = await Promise.allSettled(
      Array.from({ length: 5 }, () => requestProductionAccess(deps, 'key_x', company.id, input)),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(
      results.filter((r) => r.status === 'rejected').map((r) => (r as PromiseRejectedResult).reason.code),
    ).toEqual(['resource_conflict', 'resource_conflict', 'resource_conflict', 'resource_conflict']);
  });

  it('a partner account cannot ask for production access', async () => {
    const partner: Account = {
      ...(await newCompany()),
      id: newId('partner'),
      type: 'partner',
      sandboxFleetId: null,
    };
    await tableStores(infra).accounts.create(partner);
    expect(
      await failure(requestProductionAccess(productionAccessDeps(infra), 'key_p', partner.id, input)),
    ).toMatchObject({
      code: 'resource_conflict',
    });
    const { key } = await createKey(keyDeps(infra), operator, partner.id, {
      ownerType: 'partner',
      name: 'partner live',
      scopes: [...SCOPES],
      mode: 'live',
      expiresAt: null,
    });
    expect(key.partnerId).toBe(partner.id);
  });

  it('records who did what, with reasons, in the audit trail', async () => {
    const company = await newCompany();
    const { key } = await ownerKeyOf(company);
    await setKeyStatus(keyDeps(infra), operator, company.id, key.keyId, 'revoked', 'rotated out');
    const trail = await auditStore(infra).list({ accountId: company.id }, 10, undefined);
    expect(trail.data.map((entry) => entry.action)).toEqual(['key.revoked', 'key.created']);
    expect(trail.data[0]).toMatchObject({
      actor: { type: 'operator' },
      reason: 'rotated out',
      target: { id: key.keyId },
    });
  });
});
