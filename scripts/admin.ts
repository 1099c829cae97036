/**
 * Operator CLI: a thin client of the operator API (/admin/v1/…, docs/operator-api.md). Locally it
 * uses the base URL and operator token of .local/credentials.json; against AWS set
 * OPERATOR_API_URL to the production ApiUrl and sign with credentials of the operators' role
 * (scripts/operator-client.ts). Every command prints the API's JSON answer.
 *
 *   npm run admin -- <command> [--flag value …]
 *
 * Commands:
 *   put-plans                                       PUT every plan of shared/plans/domain/plan-catalog.ts
 *   plans                                           list the plans
 *   create-partner --name <n> --contact-email <e>   the partner and its owner key (secret once)
 *   create-company --name <n> --timezone <IANA> --contact-email <e>
 *                                                   the company, its sandbox twin, its owner test key
 *   create-key --owner-type partner|company (--partner <ptr_…> | --company <cmp_…>) --plan <name>
 *              --name <label> [--mode live|test] [--scopes a,b,c]        the key (secret once)
 *   suspend-key | unsuspend-key --key <key_…>
 *   revoke-key --key <key_…> --reason <why>
 *   set-account-plan --account <ptr_…|cmp_…> --plan <name>
 *   requests [--status pending|approved|denied|revoked]
 *   approve --request <par_…> --plan <name>
 *   deny | revoke-access --request <par_…> --reason <why>
 *   audit [--account <ptr_…|cmp_…>]
 *   fuel-tax-rates                                  the state diesel tax rates in force and upcoming
 *   readiness                                       whether the stage serves an imported, fresh catalog (docs/operations.md)
 *   set-fuel-tax-rate --state <XX> --usd-per-gallon <n> --effective-from <YYYY-Qn>
 *                                                   a state's rate from a quarter on
 *   set-fuel-program --fleet <flt_…> --rule required|preferred|none
 *                    --chains "Love's=12,Pilot Flying J=15,TA=0" [--penalty <cents>]
 *                                                   the fleet's whole fuel card program (cents per gallon)
 *   set-discounts --fleet <flt_…> --discounts "Love's=12,Pilot Flying J=15"
 *                                                   the program's chains and discounts; rule and penalty kept
 *       (both are fleet data, not access: written straight to the fleet's item in TABLE_NAME; no
 *       operator endpoint. A company's owner key sets the same with PATCH /v1/fleet.)
 */
import { parseArgs } from 'node:util';
import { fuelProgramResource } from '#shared/fleets/api/serializers.ts';
import { createFleetStore } from '#shared/fleets/store/fleets.ts';
import type { FuelProgram } from '#shared/fuel-programs/domain/program.ts';
import { COMPANY_SCOPES, SCOPES } from '#shared/kernel/access.ts';
import { formatTimestamp } from '#shared/kernel/time.ts';
import { PLAN_CATALOG } from '#shared/plans/domain/plan-catalog.ts';
import { createCursorCodec } from '#shared/table/cursor.ts';
import { createDocumentClient } from '#shared/table/dynamo-client.ts';
import { fuelProgramFromFlags } from './fuel-program-flags.ts';
import { operatorClient } from './operator-client.ts';

const [command, ...rest] = process.argv.slice(2);
const { values: flags } = parseArgs({
  args: rest,
  options: {
    name: { type: 'string' },
    timezone: { type: 'string' },
    'contact-email': { type: 'string' },
    'owner-type': { type: 'string' },
    partner: { type: 'string' },
    company: { type: 'string' },
    account: { type: 'string' },
    plan: { type: 'string' },
    mode: { type: 'string', default: 'live' },
    scopes: { type: 'string' },
    key: { type: 'string' },
    request: { type: 'string' },
    reason: { type: 'string' },
    status: { type: 'string' },
    fleet: { type: 'string' },
    discounts: { type: 'string' },
    rule: { type: 'string' },
    chains: { type: 'string' },
    penalty: { type: 'string' },
    state: { type: 'string' },
    'usd-per-gallon': { type: 'string' },
    'effective-from': { type: 'string' },
  },
});

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

function need(name: keyof typeof flags): string {
  const value = flags[name];
  if (typeof value !== 'string' || value === '') fail(`--${name} is required for ${command}`);
  return value;
}

const print = (answer: unknown) => console.log(JSON.stringify(answer, null, 2));

async function main() {
  if (command === 'set-fuel-program') return setFuelProgram();
  if (command === 'set-discounts') return setDiscounts();
  const api = operatorClient();
  switch (command) {
    case 'put-plans': {
      for (const plan of PLAN_CATALOG) {
        await api.call('PUT', `/admin/v1/plans/${plan.name}`, {
          rate_limit_per_min: plan.rateLimitPerMin,
          monthly_quota: plan.monthlyQuota,
          station_query_budget: plan.stationQueryBudget,
          max_station_results: plan.priceQueryCap,
          ...(plan.enumerationGuard ? { enumeration_guard: guardBody(plan.enumerationGuard) } : {}),
        });
      }
      console.log(`Wrote ${PLAN_CATALOG.length} plans: ${PLAN_CATALOG.map((p) => p.name).join(', ')}`);
      return;
    }
    case 'plans':
      return print(await api.call('GET', '/admin/v1/plans'));
    case 'create-partner':
      return print(
        await api.call('POST', '/admin/v1/partners', {
          name: need('name'),
          contact_email: need('contact-email'),
        }),
      );
    case 'create-company':
      return print(
        await api.call('POST', '/admin/v1/companies', {
          name: need('name'),
          timezone: need('timezone'),
          contact_email: need('contact-email'),
        }),
      );
    case 'create-key': {
      const ownerType = need('owner-type');
      if (ownerType !== 'partner' && ownerType !== 'company') fail('--owner-type must be partner or company');
      const scopes = flags.scopes?.split(',').map((scope) => scope.trim()) ?? [
        ...(ownerType === 'partner' ? SCOPES : COMPANY_SCOPES),
      ];
      return print(
        await api.call('POST', '/admin/v1/keys', {
          owner_type: ownerType,
          ...(ownerType === 'partner' ? { partner_id: need('partner') } : { company_id: need('company') }),
          plan: need('plan'),
          scopes,
          name: need('name'),
          mode: flags.mode,
        }),
      );
    }
    case 'suspend-key':
    case 'unsuspend-key':
      return print(await api.call('POST', `/admin/v1/keys/${need('key')}/${command.replace('-key', '')}`));
    case 'revoke-key':
      return print(
        await api.call('POST', `/admin/v1/keys/${need('key')}/revoke`, { reason: need('reason') }),
      );
    case 'set-account-plan':
      return print(
        await api.call('PUT', `/admin/v1/accounts/${need('account')}/plan`, { plan: need('plan') }),
      );
    case 'requests':
      return print(
        await api.call('GET', '/admin/v1/production-access', undefined, {
          status: flags.status ?? 'pending',
        }),
      );
    case 'approve':
      return print(
        await api.call('POST', `/admin/v1/production-access/${need('request')}/approve`, {
          plan: need('plan'),
        }),
      );
    case 'deny':
    case 'revoke-access':
      return print(
        await api.call(
          'POST',
          `/admin/v1/production-access/${need('request')}/${command === 'deny' ? 'deny' : 'revoke'}`,
          {
            reason: need('reason'),
          },
        ),
      );
    case 'audit':
      return print(
        await api.call(
          'GET',
          '/admin/v1/audit',
          undefined,
          flags.account ? { account_id: flags.account } : {},
        ),
      );
    case 'fuel-tax-rates':
      return print(await api.call('GET', '/admin/v1/fuel-tax-rates'));
    case 'readiness':
      return print(await api.call('GET', '/admin/v1/readiness'));
    case 'set-fuel-tax-rate': {
      const rate = Number(need('usd-per-gallon'));
      if (!Number.isFinite(rate)) fail('--usd-per-gallon must be a number, e.g. 0.785');
      return print(
        await api.call('PUT', `/admin/v1/fuel-tax-rates/${need('state')}`, {
          usd_per_gallon: rate,
          effective_from: need('effective-from'),
        }),
      );
    }
    default:
      fail(
        'Usage: npm run admin -- put-plans|plans|create-partner|create-company|create-key|suspend-key|' +
          'unsuspend-key|revoke-key|set-account-plan|requests|approve|deny|revoke-access|audit|' +
          'fuel-tax-rates|set-fuel-tax-rate|readiness|set-fuel-program|set-discounts …',
      );
  }
}

/** The plan catalog's guard overrides in the API's snake_case. */
function guardBody(guard: NonNullable<(typeof PLAN_CATALOG)[number]['enumerationGuard']>) {
  const names: Record<string, string> = {
    windowMinutes: 'window_minutes',
    latticeMinCells: 'lattice_min_cells',
    maxDistinctCells: 'max_distinct_cells',
    fleetRadiusMiles: 'fleet_radius_miles',
    farShare: 'far_share',
    coolDownMinutes: 'cool_down_minutes',
  };
  return Object.fromEntries(Object.entries(guard).map(([name, value]) => [names[name] ?? name, value]));
}

/** The stage table's fleets, written straight (the program is fleet data, not access). */
function fleetTable() {
  const tableName =
    process.env.TABLE_NAME ?? fail('Set TABLE_NAME to the stage table (see the stack outputs).');
  const client = createDocumentClient({
    region: process.env.AWS_REGION ?? 'us-east-1',
    endpoint: process.env.DYNAMODB_ENDPOINT,
  });
  // The codec only pages fleet lists, which these commands never do.
  return createFleetStore(client, tableName, createCursorCodec('admin'));
}

async function writeProgram(
  fleets: ReturnType<typeof fleetTable>,
  fleetId: string,
  read: ReturnType<typeof fuelProgramFromFlags>,
) {
  if ('problems' in read) fail(read.problems.join('\n'));
  const updated = await fleets.update(fleetId, { fuelProgram: read.program }, formatTimestamp(Date.now()));
  if (!updated) fail(`Fleet ${fleetId} is not an active fleet of TABLE_NAME`);
  print(fuelProgramResource(updated.fuelProgram));
}

async function setFuelProgram() {
  const fleetId = need('fleet');
  const read = fuelProgramFromFlags(
    { rule: need('rule'), chains: flags.chains ?? '', penalty: flags.penalty },
    formatTimestamp(Date.now()),
  );
  await writeProgram(fleetTable(), fleetId, read);
}

/** New chains and discounts under the rule and penalty the fleet has (a fleet without a program: none). */
async function setDiscounts() {
  const fleetId = need('fleet');
  const fleets = fleetTable();
  const fleet = (await fleets.get(fleetId)) ?? fail(`Fleet ${fleetId} is not a fleet of TABLE_NAME`);
  const current: FuelProgram = fleet.fuelProgram;
  const read = fuelProgramFromFlags(
    {
      rule: current.rule,
      chains: need('discounts'),
      penalty: String(current.offProgramPenaltyCents),
    },
    formatTimestamp(Date.now()),
  );
  await writeProgram(fleets, fleetId, read);
}

await main().catch((error: unknown) => fail((error as Error).message));
