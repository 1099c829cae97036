/**
 * Operator CLI for a deployed stage (or the local one): plans, partners, company fleets and keys.
 * The API has no key-management endpoints yet (the production-access approval flow comes later),
 * so this is how an operator onboards the first customers.
 *
 *   TABLE_NAME=<stage table> [AWS_REGION=…] [DYNAMODB_ENDPOINT=http://127.0.0.1:8000] \
 *     npm run admin -- <command> [--flag value …]
 *
 * Commands:
 *   put-plans                                   write the plan catalog (shared/domain/plan-catalog.ts)
 *   create-partner --name <name>                prints the ptr_ id
 *   create-company-fleet --name <n> --timezone <IANA zone> [--contact-email <e>] [--sandbox]
 *   create-key --owner-type partner|company (--partner <ptr_…> | --fleet <flt_…>) --plan <name>
 *              --name <label> [--mode live|test] [--scopes a,b,c]   prints the key ONCE
 *   set-key-status --key <svc_…> --status active|revoked|suspended
 *   set-discounts --fleet <flt_…> --discounts "Love's=12,Pilot Flying J=15"   (cents per gallon by chain)
 */
import { parseArgs } from 'node:util';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { COMPANY_SCOPES, SCOPES, type Scope } from '../shared/domain/access.ts';
import { NO_PRODUCTION_ACCESS } from '../shared/domain/accounts/account.ts';
import { generateApiKey, hashApiKey, type KeyMode } from '../shared/domain/api-keys.ts';
import { DEFAULT_MIN_ARRIVAL_FUEL_PERCENT } from '../shared/domain/fleet.ts';
import { PLAN_CATALOG } from '../shared/domain/plan-catalog.ts';
import { newId } from '../shared/platform/ids.ts';
import { formatTimestamp } from '../shared/platform/time.ts';
import { createAccountStore } from '../shared/store/accounts.ts';
import { apiKeyKey, createApiKeyStore } from '../shared/store/api-keys.ts';
import { createCursorCodec } from '../shared/store/cursor.ts';
import { createDocumentClient } from '../shared/store/dynamo-client.ts';
import { createFleetStore } from '../shared/store/fleets.ts';
import { createFuelDiscountStore } from '../shared/store/fuel-discounts.ts';
import { createPlanStore } from '../shared/store/plans.ts';

const [command, ...rest] = process.argv.slice(2);
const { values: flags } = parseArgs({
  args: rest,
  options: {
    name: { type: 'string' },
    timezone: { type: 'string' },
    'contact-email': { type: 'string' },
    'owner-type': { type: 'string' },
    partner: { type: 'string' },
    fleet: { type: 'string' },
    plan: { type: 'string' },
    mode: { type: 'string', default: 'live' },
    scopes: { type: 'string' },
    key: { type: 'string' },
    account: { type: 'string' },
    status: { type: 'string' },
    discounts: { type: 'string' },
  },
});

const tableName = process.env.TABLE_NAME;
if (!tableName) fail('Set TABLE_NAME to the stage table (see the stack outputs).');
const controlTable =
  process.env.CONTROL_TABLE_NAME ?? fail('Set CONTROL_TABLE_NAME to the control-plane table.');
const client = createDocumentClient({
  region: process.env.AWS_REGION ?? 'us-east-1',
  endpoint: process.env.DYNAMODB_ENDPOINT,
});
const now = formatTimestamp(Date.now());

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

function need(name: keyof typeof flags): string {
  const value = flags[name];
  if (typeof value !== 'string' || value === '') fail(`--${name} is required for ${command}`);
  return value;
}

async function main() {
  const fleets = createFleetStore(client, tableName as string, createCursorCodec('admin'));
  switch (command) {
    case 'put-plans': {
      const plans = createPlanStore(client, controlTable);
      for (const plan of PLAN_CATALOG) await plans.put(plan);
      console.log(`Wrote ${PLAN_CATALOG.length} plans: ${PLAN_CATALOG.map((p) => p.name).join(', ')}`);
      return;
    }
    case 'create-partner': {
      const id = newId('partner');
      await createAccountStore(client, controlTable).create({
        id,
        type: 'partner',
        name: need('name'),
        contactEmail: flags['contact-email'] ?? null,
        timezone: null,
        planName: 'starter',
        liveFleetId: null,
        sandboxFleetId: null,
        productionAccess: NO_PRODUCTION_ACCESS,
        createdAt: now,
      });
      console.log(id);
      return;
    }
    case 'create-company-fleet': {
      const id = newId('fleet');
      await fleets.putCompanyFleet({
        id,
        name: need('name'),
        externalRef: null,
        contactEmail: flags['contact-email'] ?? null,
        timezone: need('timezone'),
        status: 'active',
        defaultMinArrivalFuelPercent: DEFAULT_MIN_ARRIVAL_FUEL_PERCENT,
        partnerId: null,
        createdAt: now,
        updatedAt: now,
      });
      console.log(id);
      return;
    }
    case 'create-key': {
      const ownerType = need('owner-type');
      if (ownerType !== 'partner' && ownerType !== 'company') fail('--owner-type must be partner or company');
      const mode = flags.mode as KeyMode;
      if (mode !== 'live' && mode !== 'test') fail('--mode must be live or test');
      const allowed: readonly Scope[] = ownerType === 'partner' ? SCOPES : COMPANY_SCOPES;
      const scopes = (flags.scopes?.split(',').map((s) => s.trim()) ?? [...allowed]) as Scope[];
      const refused = scopes.filter((scope) => !allowed.includes(scope));
      if (refused.length) fail(`Not allowed for a ${ownerType} key: ${refused.join(', ')}`);
      const key = generateApiKey(mode);
      const partnerId = ownerType === 'partner' ? need('partner') : null;
      await createApiKeyStore(client, controlTable).create(hashApiKey(key), {
        keyId: newId('apiKey'),
        accountId: partnerId ?? need('account'),
        expiresAt: null,
        revokedReason: null,
        lastUsedAt: null,
        createdBy: 'operator',
        name: need('name'),
        ownerType,
        partnerId,
        fleetId: ownerType === 'company' ? need('fleet') : null,
        mode,
        scopes,
        status: 'active',
        planName: need('plan'),
        createdAt: now,
      });
      console.log(`${key}\n(shown once; only its SHA-256 is stored)`);
      return;
    }
    case 'set-key-status': {
      const status = need('status');
      if (!['active', 'revoked', 'suspended'].includes(status))
        fail('--status must be active, revoked or suspended');
      await client.send(
        new UpdateCommand({
          TableName: controlTable,
          Key: apiKeyKey(hashApiKey(need('key'))),
          UpdateExpression: 'SET #status = :status',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':status': status },
        }),
      );
      console.log(`Key is now ${status}.`);
      return;
    }
    case 'set-discounts': {
      const discounts: Record<string, number> = {};
      for (const pair of need('discounts').split(',')) {
        const [chain, cents] = pair.split('=').map((part) => part.trim());
        const value = Number(cents);
        if (!chain || !Number.isFinite(value) || value < 0 || value > 200) {
          fail(`Bad discount "${pair}": use Chain=cents, 0–200 cents per gallon`);
        }
        discounts[chain] = value;
      }
      await createFuelDiscountStore(client, tableName as string).put(need('fleet'), discounts);
      console.log(`Discounts for ${need('fleet')}: ${JSON.stringify(discounts)}`);
      return;
    }
    default:
      fail(
        'Usage: npm run admin -- put-plans|create-partner|create-company-fleet|create-key|set-key-status …',
      );
  }
}

await main();
