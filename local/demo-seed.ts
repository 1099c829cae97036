import { randomBytes } from 'node:crypto';
import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { NO_PRODUCTION_ACCESS } from '#shared/accounts/domain/account.ts';
import { createAccountStore } from '#shared/accounts/store/accounts.ts';
import { operatorTokenKey } from '#shared/accounts/store/operator-tokens.ts';
import {
  DEFAULT_ASSUMED_DEPARTURE_FUEL_PERCENT,
  DEFAULT_MIN_ARRIVAL_FUEL_PERCENT,
  type Fleet,
} from '#shared/fleets/domain/fleet.ts';
import { UNSET_TRUCK_PROFILE } from '#shared/fleets/domain/truck-profile.ts';
import { createFleetStore } from '#shared/fleets/store/fleets.ts';
import { fleetProvisionedEvent } from '#shared/fleets/usecases/fleets.ts';
import type { FuelProgram } from '#shared/fuel-programs/domain/program.ts';
import { DEFAULT_FUEL_TAX_TREATMENT } from '#shared/fuel-tax/domain/treatment.ts';
import { COMPANY_SCOPES, SCOPES, type Scope } from '#shared/kernel/access.ts';
import { newId } from '#shared/kernel/ids.ts';
import { formatTimestamp } from '#shared/kernel/time.ts';
import {
  type ApiKeyRecord,
  generateApiKey,
  hashApiKey,
  type KeyMode,
  type KeyStatus,
} from '#shared/keys/domain/api-key.ts';
import { accountKeyKey, apiKeyKey, createApiKeyStore, keyIdKey } from '#shared/keys/store/api-keys.ts';
import { PLAN_CATALOG } from '#shared/plans/domain/plan-catalog.ts';
import { createPlanStore } from '#shared/plans/store/plans.ts';
import type { Stage } from '#shared/platform/config.ts';
import { createSimulationStore } from '#shared/sandbox/store/sandbox-simulations.ts';
import { activeSimulation } from '#shared/sandbox/usecases/sandbox-simulation.ts';
import { createCursorCodec } from '#shared/table/cursor.ts';
import type { DocumentClient } from '#shared/table/dynamo-client.ts';
import { createVehicleStore } from '#shared/vehicles/store/vehicles.ts';

/** `.local/credentials.json` minus the base URLs, which only the server knows. */
export interface LocalCredentialsSeed {
  operator_token: string;
  fleets: { company: string; company_sandbox: string; partner_granted: string[] };
  keys: {
    partner_live: string;
    company_live: string;
    company_test: string;
    company_readonly: string;
    company_revoked: string;
    company_suspended: string;
  };
}

type KeyName = keyof LocalCredentialsSeed['keys'];

/** What a seed run did, for the start-up progress lines. */
export interface SeedOutcome {
  /** `created`: a new demo world (fleets, partner); `kept`: the one already in the tables. */
  world: 'created' | 'kept';
  /** `reused`: the keys and operator token of the last run still hold; `issued`: new ones. */
  keys: 'issued' | 'reused';
}

export interface SeedOptions {
  /**
   * The credentials written by the last run (persistent data only). When the tables still hold
   * this world and every one of these keys, they are kept, so a restart changes no key.
   */
  previous?: LocalCredentialsSeed | undefined;
}

export interface SeedTables {
  prodTable: string;
  sandboxTable: string;
  controlTable: string;
}

/** Remembers what the seed created, so a second run reuses the entities instead of duplicating them. */
const MARKER_KEY = { pk: 'SEED#demo', sk: 'SEED' };

/** Where the operator API (token mode) looks the local operator token up. */
export { operatorTokenKey };

interface Marker {
  partner_id: string;
  partner_fleet_id: string;
  company_fleet_id: string;
  sandbox_fleet_id: string;
  /** The demo company's account (absent in data seeded before accounts existed: a new world then). */
  company_id?: string;
  /** Hashes of the keys issued last time, per table, revoked by deletion on the next run. */
  key_hashes: { table: string; hash: string; key_id?: string; account_id?: string }[];
  operator_hash: string;
}

/**
 * Seeds the demo world the local stack and the e2e suite run against: a partner with one granted
 * fleet, a company with a live fleet and its sandbox twin, the plans, and the six keys of
 * DESIGN.md. Idempotent: entities are created once (ids kept in a marker item). Keys are stored
 * only as hashes, so they can be kept across runs only when the caller hands back the plain keys
 * of the last run (`options.previous`, from the credentials file); otherwise each run issues fresh
 * keys and deletes the previous run's.
 */
export async function seedDemoData(
  client: DocumentClient,
  tables: SeedTables,
  options: SeedOptions = {},
): Promise<LocalCredentialsSeed & { outcome: SeedOutcome }> {
  const nowMs = Date.now();
  const at = formatTimestamp(nowMs);
  const { Item } = await client.send(new GetCommand({ TableName: tables.controlTable, Key: MARKER_KEY }));
  const previous = Item as (Marker & typeof MARKER_KEY) | undefined;

  const plans = createPlanStore(client, tables.controlTable);
  for (const plan of PLAN_CATALOG) await plans.put(plan);
  if (previous && options.previous && (await stillValid(client, tables, previous, options.previous))) {
    const { operator_token, fleets, keys } = options.previous;
    await resumeSandboxTwin(client, tables, fleets.company_sandbox, nowMs);
    return { operator_token, fleets, keys, outcome: { world: 'kept', keys: 'reused' } };
  }
  for (const old of previous?.key_hashes ?? []) await forgetKey(client, old);
  if (previous) {
    await client.send(
      new DeleteCommand({ TableName: tables.controlTable, Key: operatorTokenKey(previous.operator_hash) }),
    );
  }

  const partnerId = previous?.partner_id ?? newId('partner', nowMs);
  const partnerFleetId = previous?.partner_fleet_id ?? newId('fleet', nowMs);
  const companyFleetId = previous?.company_fleet_id ?? newId('fleet', nowMs);
  const sandboxFleetId = previous?.sandbox_fleet_id ?? newId('fleet', nowMs);

  const companyId = previous?.company_id ?? newId('company', nowMs);
  if (!previous) {
    await seedFleets(client, tables, { partnerId, partnerFleetId, companyFleetId, sandboxFleetId }, nowMs);
  }
  await seedAccounts(client, tables, { partnerId, companyId, companyFleetId, sandboxFleetId }, at);
  await resumeSandboxTwin(client, tables, sandboxFleetId, nowMs);

  const issued: Marker['key_hashes'] = [];
  const keyStore = createApiKeyStore(client, tables.controlTable);
  const issue = async (
    mode: KeyMode,
    record: Omit<ApiKeyRecord, 'keyId' | 'mode' | 'createdAt' | 'expiresAt' | 'lastUsedAt' | 'createdBy'>,
  ) => {
    const key = generateApiKey(mode);
    const hash = hashApiKey(key);
    const keyId = newId('apiKey', nowMs);
    await keyStore.create(hash, {
      ...record,
      keyId,
      mode,
      createdAt: at,
      expiresAt: null,
      lastUsedAt: null,
      createdBy: 'operator',
    });
    issued.push({ table: tables.controlTable, hash, key_id: keyId, account_id: record.accountId });
    return key;
  };
  const companyKey = (name: string, scopes: readonly Scope[], status: KeyStatus = 'active') => ({
    name,
    ownerType: 'company' as const,
    accountId: companyId,
    revokedReason: status === 'revoked' ? 'Revoked by the demo seed' : null,
    partnerId: null,
    fleetId: companyFleetId,
    scopes: [...scopes],
    status,
    planName: 'local-dev',
  });

  const keys: Record<KeyName, string> = {
    partner_live: await issue('live', {
      name: 'Demo partner (all partner scopes)',
      ownerType: 'partner',
      accountId: partnerId,
      revokedReason: null,
      partnerId,
      fleetId: null,
      scopes: [...SCOPES],
      status: 'active',
      planName: 'local-dev',
    }),
    company_live: await issue('live', companyKey('Demo company live', COMPANY_SCOPES)),
    company_test: await issue('test', {
      ...companyKey('Demo company sandbox', COMPANY_SCOPES),
      fleetId: sandboxFleetId,
    }),
    company_readonly: await issue('live', companyKey('Demo company read-only', ['guidance:read'])),
    company_revoked: await issue('live', companyKey('Demo company revoked', COMPANY_SCOPES, 'revoked')),
    company_suspended: await issue('live', companyKey('Demo company suspended', COMPANY_SCOPES, 'suspended')),
  };

  const operatorToken = `op_${randomBytes(24).toString('base64url')}`;
  const operatorHash = hashApiKey(operatorToken);
  await client.send(
    new PutCommand({
      TableName: tables.controlTable,
      Item: { ...operatorTokenKey(operatorHash), name: 'Local operator', created_at: at },
    }),
  );

  const marker: Marker = {
    partner_id: partnerId,
    partner_fleet_id: partnerFleetId,
    company_fleet_id: companyFleetId,
    sandbox_fleet_id: sandboxFleetId,
    company_id: companyId,
    key_hashes: issued,
    operator_hash: operatorHash,
  };
  await client.send(new PutCommand({ TableName: tables.controlTable, Item: { ...MARKER_KEY, ...marker } }));

  return {
    operator_token: operatorToken,
    fleets: { company: companyFleetId, company_sandbox: sandboxFleetId, partner_granted: [partnerFleetId] },
    keys,
    outcome: { world: previous ? 'kept' : 'created', keys: 'issued' },
  };
}

/**
 * Whether the last run's credentials still describe this database: the same fleets as the marker,
 * the marker's own keys and operator token, and every key item still there (a key deleted or a
 * database swapped under the file means new keys).
 */
async function stillValid(
  client: DocumentClient,
  tables: SeedTables,
  marker: Marker,
  credentials: LocalCredentialsSeed,
): Promise<boolean> {
  const sameWorld =
    credentials.fleets.company === marker.company_fleet_id &&
    credentials.fleets.company_sandbox === marker.sandbox_fleet_id &&
    credentials.fleets.partner_granted.length === 1 &&
    credentials.fleets.partner_granted[0] === marker.partner_fleet_id &&
    hashApiKey(credentials.operator_token) === marker.operator_hash;
  if (!sameWorld) return false;
  if (!marker.company_id) return false;
  const issued = new Set(marker.key_hashes.map(({ table, hash }) => `${table}|${hash}`));
  for (const key of Object.values(credentials.keys)) {
    if (typeof key !== 'string') return false;
    const hash = hashApiKey(key);
    if (!issued.has(`${tables.controlTable}|${hash}`)) return false;
    const { Item: stored } = await client.send(
      new GetCommand({ TableName: tables.controlTable, Key: apiKeyKey(hash) }),
    );
    if (!stored) return false;
  }
  const { Item: operator } = await client.send(
    new GetCommand({ TableName: tables.controlTable, Key: operatorTokenKey(marker.operator_hash) }),
  );
  return operator !== undefined;
}

async function seedFleets(
  client: DocumentClient,
  tables: SeedTables,
  ids: { partnerId: string; partnerFleetId: string; companyFleetId: string; sandboxFleetId: string },
  nowMs: number,
) {
  const at = formatTimestamp(nowMs);
  // The codec is unused by writes; any key will do here.
  const prodFleets = createFleetStore(client, tables.prodTable, createCursorCodec('seed'));
  const sandboxFleets = createFleetStore(client, tables.sandboxTable, createCursorCodec('seed'));
  // Fuel card programs, typical of a mid-size fleet's negotiated rates (discounts in cents per gallon).
  // The company's live fleet lists its chains without keeping plans to them (rule none): suites
  // guide its trucks to whatever station is cheapest, other chains included. Its sandbox twin
  // keeps plans to the card (required); the partner's fleet prefers its chains at an 8 ¢ penalty.
  const companyChains = [
    { chain: "Love's", discountCents: 12 },
    { chain: 'Pilot Flying J', discountCents: 15 },
  ];
  const program = (rule: FuelProgram['rule'], chains: FuelProgram['chains'], penalty = 0): FuelProgram => ({
    rule,
    chains,
    offProgramPenaltyCents: penalty,
    updatedAt: at,
  });
  const fleet = (
    id: string,
    name: string,
    partnerId: string | null,
    stage: Stage,
    fuelProgram: FuelProgram,
  ): Fleet => ({
    id,
    name,
    externalRef: stage === 'sandbox' ? 'demo-company-sandbox' : null,
    contactEmail: 'ops@example.com',
    timezone: 'America/Chicago',
    status: 'active',
    defaultMinArrivalFuelPercent: DEFAULT_MIN_ARRIVAL_FUEL_PERCENT,
    assumedDepartureFuelPercent: DEFAULT_ASSUMED_DEPARTURE_FUEL_PERCENT,
    fuelTaxTreatment: DEFAULT_FUEL_TAX_TREATMENT,
    fuelProgram,
    truckProfile: { ...UNSET_TRUCK_PROFILE },
    partnerId,
    createdAt: at,
    updatedAt: at,
  });
  const partnerProgram = program(
    'preferred',
    [
      { chain: 'TA', discountCents: 10 },
      { chain: 'Petro', discountCents: 10 },
    ],
    8,
  );
  const partnerFleet = fleet(ids.partnerFleetId, 'Partner Demo Fleet', ids.partnerId, 'prod', partnerProgram);
  await prodFleets.provision(partnerFleet, ids.partnerId, fleetProvisionedEvent('prod', partnerFleet, nowMs));
  await prodFleets.putCompanyFleet(
    fleet(ids.companyFleetId, 'Demo Company Freight', null, 'prod', program('none', companyChains)),
  );
  await sandboxFleets.putCompanyFleet(
    fleet(
      ids.sandboxFleetId,
      'Demo Company Freight (sandbox)',
      null,
      'sandbox',
      program('required', companyChains),
    ),
  );
}

/**
 * The demo world's accounts in the control plane: the partner, and the company with its live fleet
 * and sandbox twin, production access already approved (so `company_live` is a key it could have
 * created itself). Written once; a later run finds them.
 */
async function seedAccounts(
  client: DocumentClient,
  tables: SeedTables,
  ids: { partnerId: string; companyId: string; companyFleetId: string; sandboxFleetId: string },
  at: string,
) {
  const accounts = createAccountStore(client, tables.controlTable);
  await accounts.create({
    id: ids.partnerId,
    type: 'partner',
    name: 'Demo Telematics Partner',
    contactEmail: 'integrations@example.com',
    timezone: null,
    planName: 'local-dev',
    liveFleetId: null,
    sandboxFleetId: null,
    productionAccess: NO_PRODUCTION_ACCESS,
    createdAt: at,
  });
  await accounts.create({
    id: ids.companyId,
    type: 'company',
    name: 'Demo Company Freight',
    contactEmail: 'ops@example.com',
    timezone: 'America/Chicago',
    planName: 'local-dev',
    liveFleetId: ids.companyFleetId,
    sandboxFleetId: ids.sandboxFleetId,
    productionAccess: { status: 'approved', requestId: null, reason: null, decidedAt: at },
    createdAt: at,
  });
}

/**
 * The sandbox twin's three simulated trucks: provisioned once, resumed on every start (a paused
 * twin's clock jumps to now), so the local tick moves them within seconds of `npm start`.
 */
async function resumeSandboxTwin(
  client: DocumentClient,
  tables: SeedTables,
  sandboxFleetId: string,
  nowMs: number,
) {
  await activeSimulation(
    {
      simulations: createSimulationStore(client, tables.sandboxTable),
      vehicles: createVehicleStore(client, tables.sandboxTable, createCursorCodec('seed')),
      now: () => nowMs,
    },
    sandboxFleetId,
  );
}

/**
 * Removes a key of an earlier seed run from the control plane: every secret it has (a rotation
 * through the API may have added one), its item under the account and its id pointer.
 */
async function forgetKey(client: DocumentClient, old: Marker['key_hashes'][number]) {
  const secrets = new Set([old.hash]);
  if (old.key_id && old.account_id) {
    const stored = await createApiKeyStore(client, old.table).get(old.account_id, old.key_id);
    if (stored) for (const hash of [stored.currentHash, stored.previousHash]) if (hash) secrets.add(hash);
    await client.send(
      new DeleteCommand({ TableName: old.table, Key: accountKeyKey(old.account_id, old.key_id) }),
    );
    await client.send(new DeleteCommand({ TableName: old.table, Key: keyIdKey(old.key_id) }));
  }
  for (const hash of secrets)
    await client.send(new DeleteCommand({ TableName: old.table, Key: apiKeyKey(hash) }));
}
