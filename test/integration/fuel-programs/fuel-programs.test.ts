import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { provisionFleet, updateActingFleetSettings, updateFleet } from '#shared/fleets/usecases/fleets.ts';
import { NO_FUEL_PROGRAM } from '#shared/fuel-programs/domain/program.ts';
import { newId } from '#shared/kernel/ids.ts';
import { fixedClock } from '#shared/kernel/time.ts';
import type { Principal } from '#shared/keys/domain/api-key.ts';
import type { ApiError } from '#shared/platform/errors.ts';
import { nearbyStationsResource } from '#shared/stations/api/serializers.ts';
import { nearbyStations } from '#shared/stations/usecases/stations.ts';
import { nearbyStationDeps, stationSources } from '#shared/stations/wiring/stations.ts';
import { tableStores } from '#shared/wiring/table-stores.ts';
import { createTestTable, deleteTestTable, dynamoDbEndpoint } from '#test/support/dynamodb.ts';
import { type TestInfrastructure, testInfrastructure } from '#test/support/infrastructure.ts';

// A fleet's fuel card program against DynamoDB Local, wired as the functions are: PATCH writes it
// on the fleet's item (fleetDeps' store), plans and station queries read it (stationSources).

const NOW_MS = Date.parse('2026-11-21T22:26:10.123Z');
const AT = '2026-11-21T22:26:10.123000Z';
let infra: TestInfrastructure;

beforeAll(async () => {
  const base = testInfrastructure({ tableName: 'pending' });
  const tableName = await createTestTable(base.dynamo, 'fuel-programs');
  infra = testInfrastructure({ tableName, clock: fixedClock(NOW_MS) });
});
afterAll(() => deleteTestTable(infra.dynamo, infra.config.tableName));

const deps = () => ({ fleets: tableStores(infra).fleets, stage: 'prod' as const, clock: infra.clock });
const owner = { ownerType: 'company', scopes: ['vehicles:manage', 'keys:manage'] } as const;

async function newFleet() {
  const partnerId = newId('partner');
  return {
    partnerId,
    fleet: await provisionFleet(deps(), partnerId, { name: 'Card fleet', timezone: 'UTC' }),
  };
}

describe("the fleet's fuel_program on its item", () => {
  it('is no program on a new fleet, then round-trips through PATCH and every read of the fleet', async () => {
    const { partnerId, fleet } = await newFleet();
    expect(fleet.fuelProgram).toEqual(NO_FUEL_PROGRAM);
    expect(await stationSources(infra).fuelPrograms.get(fleet.id)).toEqual(NO_FUEL_PROGRAM);

    const updated = await updateFleet(deps(), partnerId, fleet.id, {
      fuel_program: {
        rule: 'preferred',
        chains: [
          { chain: "Love's", discount_usd_per_gallon: 0.125 },
          { chain: 'TA', discount_usd_per_gallon: 0 },
        ],
        off_program_penalty_usd_per_gallon: 0.08,
      },
    });

    const expected = {
      rule: 'preferred',
      chains: [
        { chain: "Love's", discountCents: 12.5 },
        { chain: 'TA', discountCents: 0 },
      ],
      offProgramPenaltyCents: 8,
      updatedAt: AT,
    };
    expect(updated.fuelProgram).toEqual(expected);
    expect((await tableStores(infra).fleets.get(fleet.id))?.fuelProgram).toEqual(expected);
    const page = await tableStores(infra).fleets.listGranted(partnerId, 10, undefined);
    expect(page.data.map((f) => f.fuelProgram)).toEqual([expected]);
    // The other settings stayed.
    expect(updated).toMatchObject({
      name: 'Card fleet',
      fuelTaxTreatment: 'ifta',
      defaultMinArrivalFuelPercent: 10,
    });
  });

  it('is read by the stations source at once after a change, and cleared with rule none', async () => {
    const { fleet } = await newFleet();
    const source = stationSources(infra).fuelPrograms;
    const set = (fuel_program: Parameters<typeof updateActingFleetSettings>[3]['fuel_program']) =>
      updateActingFleetSettings(deps(), owner, fleet.id, { fuel_program });

    await set({
      rule: 'required',
      chains: [{ chain: 'Pilot Flying J', discount_usd_per_gallon: 0.15 }],
      off_program_penalty_usd_per_gallon: 0,
    });
    expect((await source.get(fleet.id)).chains).toEqual([{ chain: 'Pilot Flying J', discountCents: 15 }]);

    await set({
      rule: 'required',
      chains: [{ chain: "Love's", discount_usd_per_gallon: 0.1 }],
      off_program_penalty_usd_per_gallon: 0,
    });
    expect((await source.get(fleet.id)).chains).toEqual([{ chain: "Love's", discountCents: 10 }]);

    await set({ rule: 'none', chains: [], off_program_penalty_usd_per_gallon: 0 });
    expect(await source.get(fleet.id)).toEqual({ ...NO_FUEL_PROGRAM, updatedAt: AT });
  });

  it('filters GET /v1/stations to the chains the program holds now', async () => {
    const { fleet } = await newFleet();
    const principal: Principal = {
      keyId: 'key_1',
      keyName: 'k',
      ownerType: 'company',
      accountId: `cmp_of_${fleet.id}`,
      partnerId: null,
      ownFleetId: fleet.id,
      mode: 'live',
      scopes: ['guidance:read'],
      planName: 'local-dev',
      keyCreatedAt: '2026-11-01T00:00:00.000000Z',
    };
    const stationDeps = { ...nearbyStationDeps(infra), plan: async () => null };
    const query = { latitude: 35.222, longitude: -101.831, radius_miles: 50, limit: 25, accepted_only: true };

    const refused = await nearbyStations(stationDeps, principal, fleet.id, query).catch((e: unknown) => e);
    expect((refused as ApiError).code).toBe('validation_failed');

    for (const chain of ["Love's", 'Pilot Flying J']) {
      await updateActingFleetSettings(deps(), owner, fleet.id, {
        fuel_program: {
          rule: 'required',
          chains: [{ chain, discount_usd_per_gallon: 0 }],
          off_program_penalty_usd_per_gallon: 0,
        },
      });
      const answer = nearbyStationsResource(
        await nearbyStations(stationDeps, principal, fleet.id, query),
        NOW_MS,
      );
      expect(answer.data.length, chain).toBeGreaterThan(0);
      expect(new Set(answer.data.map((s) => [s.chain, s.in_fuel_program].join()))).toEqual(
        new Set([`${chain},true`]),
      );
    }
  });
});

describe('npm run admin -- set-fuel-program and set-discounts', () => {
  const run = (args: string[]) =>
    promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/admin.ts', ...args], {
      env: {
        ...process.env,
        TABLE_NAME: infra.config.tableName,
        CONTROL_TABLE_NAME: infra.config.tableName,
        DYNAMODB_ENDPOINT: dynamoDbEndpoint(),
      },
    });

  it("writes the fleet's program in cents; set-discounts replaces its chains and keeps rule and penalty", async () => {
    const { fleet } = await newFleet();
    const source = stationSources(infra).fuelPrograms;

    await run([
      'set-fuel-program',
      ...['--fleet', fleet.id, '--rule', 'preferred'],
      ...['--chains', "Love's=12, Pilot Flying J=15.5,TA", '--penalty', '8'],
    ]);
    expect(await source.get(fleet.id)).toMatchObject({
      rule: 'preferred',
      chains: [
        { chain: "Love's", discountCents: 12 },
        { chain: 'Pilot Flying J', discountCents: 15.5 },
        { chain: 'TA', discountCents: 0 },
      ],
      offProgramPenaltyCents: 8,
    });

    await run(['set-discounts', '--fleet', fleet.id, '--discounts', 'Petro=10,TA=4']);
    expect(await source.get(fleet.id)).toMatchObject({
      rule: 'preferred',
      chains: [
        { chain: 'Petro', discountCents: 10 },
        { chain: 'TA', discountCents: 4 },
      ],
      offProgramPenaltyCents: 8,
    });
  });

  it('refuses what PATCH refuses, saying which flag to fix, and an unknown fleet', async () => {
    const { fleet } = await newFleet();
    await expect(run(['set-discounts', '--fleet', fleet.id, '--discounts', 'TA=lots'])).rejects.toThrow(
      /Bad discount "TA=lots"/,
    );
    await expect(
      run(['set-fuel-program', '--fleet', fleet.id, '--rule', 'required', '--chains', "Love's=12,LOVE’S=10"]),
    ).rejects.toThrow(/--chains entry 2 is the same chain as chains\[0\]/);
    await expect(
      run(['set-fuel-program', '--fleet', fleet.id, '--rule', 'required', '--chains', '']),
    ).rejects.toThrow(/--chains must list at least one chain with rule required/);
    await expect(
      run(['set-fuel-program', '--fleet', fleet.id, '--rule', 'none', '--chains', 'TA=250']),
    ).rejects.toThrow(/--chains entry 1 \(its discount, in USD per gallon\) must be a number from 0 to 2.00/);
    await expect(
      run(['set-fuel-program', '--fleet', newId('fleet'), '--rule', 'none', '--chains', 'TA=1']),
    ).rejects.toThrow(/is not an active fleet/);
    expect(await stationSources(infra).fuelPrograms.get(fleet.id)).toEqual(NO_FUEL_PROGRAM);
  });
});
