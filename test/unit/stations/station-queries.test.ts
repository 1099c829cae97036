import { describe, expect, it, vi } from 'vitest';
import { type FuelProgram, NO_FUEL_PROGRAM } from '#shared/fuel-programs/domain/program.ts';
import type { Principal } from '#shared/keys/domain/api-key.ts';
import type { Plan } from '#shared/plans/domain/plans.ts';
import { ApiError } from '#shared/platform/errors.ts';
import type { AlongRouteBody } from '#shared/stations/api/schemas.ts';
import { nearbyStationsResource } from '#shared/stations/api/serializers.ts';
import { nearbyFootprint } from '#shared/stations/domain/enumeration-guard.ts';
import type { Station } from '#shared/stations/domain/station.ts';
import type { CatalogPointer } from '#shared/stations/store/station-catalog.ts';
import { createCatalogProvider } from '#shared/stations/usecases/station-catalog.ts';
import { type CorridorDeps, nearbyStations, stationsAlongRoute } from '#shared/stations/usecases/stations.ts';

const NOW = Date.parse('2026-11-21T12:00:00Z');
const station = (id: string, latitude: number, chain = 'TA'): Station => ({
  id,
  name: id,
  chain,
  latitude,
  longitude: -97,
  address: '',
  state: 'TX',
  amenities: [],
  fuels: ['diesel'],
  dieselPriceUsdPerGallon: 3.5,
  priceUpdatedAtMs: NOW - 3_600_000,
});

const principal: Principal = {
  keyId: 'key_1',
  keyName: 'k',
  ownerType: 'company',
  accountId: 'cmp_1',
  partnerId: null,
  ownFleetId: 'flt_1',
  mode: 'live',
  scopes: ['guidance:read'],
  planName: 'starter',
  keyCreatedAt: '2026-11-01T00:00:00.000000Z',
};
const starter: Plan = {
  name: 'starter',
  rateLimitPerMin: 10,
  monthlyQuota: {},
  stationQueryBudget: 100,
  priceQueryCap: 2,
};

const TA_DISCOUNT_ONLY: FuelProgram = { ...NO_FUEL_PROGRAM, chains: [{ chain: 'TA', discountCents: 10 }] };

function deps(stations: Station[], program: FuelProgram = TA_DISCOUNT_ONLY) {
  return {
    catalog: createCatalogProvider({
      store: { current: async () => null, load: async () => [] },
      synthetic: () => ({ version: 'synthetic-1', stations }),
      now: () => NOW,
    }),
    fuelPrograms: { get: vi.fn(async () => program) },
    plan: async () => starter,
    counters: {
      addUsage: vi.fn(async () => {}),
      addUsageWithin: vi.fn(async (_a: string, _p: string, _c: string, amount: number) => ({
        admitted: true,
        used: amount,
      })),
    },
    now: () => NOW,
    guard: vi.fn(async () => {}),
  };
}

describe('nearbyStations', () => {
  const query = { latitude: 32, longitude: -97, radius_miles: 50, limit: 2 };

  it('prices for the fleet, charges each returned station to the budget', async () => {
    const d = deps([station('a', 32.0), station('b', 32.1), station('c', 32.2)]);
    // As GET /v1/stations answers it: the use case's result, serialized.
    const result = nearbyStationsResource(await nearbyStations(d, principal, 'flt_1', query), NOW);
    expect(result.data.map((s) => s.id)).toEqual(['a', 'b']);
    expect(result.data[0]).toMatchObject({
      discount_usd_per_gallon: 0.1,
      net_price_usd_per_gallon: 3.4,
      price_is_stale: false,
      in_fuel_program: null,
    });
    expect(d.fuelPrograms.get).toHaveBeenCalledWith('flt_1');
    expect(d.counters.addUsageWithin).toHaveBeenCalledWith(
      'cmp_1',
      '2026-11',
      'station_results',
      2,
      starter.stationQueryBudget,
    );
  });

  it("refuses a limit above the plan's price-query cap with 422 naming limit", async () => {
    const error = await nearbyStations(deps([]), principal, 'flt_1', { ...query, limit: 3 }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe('validation_failed');
    expect((error as ApiError).extensions.errors?.[0]?.field).toBe('limit');
  });

  it('asks the enumeration guard about the area the radius covers first; a refusal answers and charges nothing', async () => {
    const d = deps([station('a', 32.0)]);
    d.guard.mockRejectedValueOnce(new ApiError('enumeration_suspected', 'sweep'));

    const error = await nearbyStations(d, principal, 'flt_1', query).catch((e: unknown) => e);

    expect(d.guard).toHaveBeenCalledWith(
      principal,
      'flt_1',
      nearbyFootprint({ latitude: 32, longitude: -97 }, query.radius_miles),
    );
    expect((error as ApiError).code).toBe('enumeration_suspected');
    expect(d.counters.addUsage).not.toHaveBeenCalled();
  });

  it('charges nothing when nothing is found', async () => {
    const d = deps([station('far', 40)]);
    expect((await nearbyStations(d, principal, 'flt_1', query)).stations).toEqual([]);
    expect(d.counters.addUsage).not.toHaveBeenCalled();
    expect(d.counters.addUsageWithin).not.toHaveBeenCalled();
  });
});

describe('accepted_only and in_fuel_program', () => {
  const query = { latitude: 32, longitude: -97, radius_miles: 50, limit: 2 };
  // Nearest first: Petro, then TA, then Love's (spelled with the typographic apostrophe).
  const stations = [
    station('petro', 32.0, 'Petro'),
    station('ta', 32.1, 'TA'),
    station('loves', 32.2, 'LOVE’S'),
  ];
  const required: FuelProgram = {
    rule: 'required',
    chains: [
      { chain: "Love's", discountCents: 12 },
      { chain: 'ta', discountCents: 0 },
    ],
    offProgramPenaltyCents: 0,
    updatedAt: '2026-11-20T00:00:00.000000Z',
  };

  it('keeps only the program’s chains (matched by chainKey), limit counted over them', async () => {
    const d = deps(stations, required);
    const result = nearbyStationsResource(
      await nearbyStations(d, principal, 'flt_1', { ...query, accepted_only: true }),
      NOW,
    );
    expect(result.data.map((s) => [s.id, s.in_fuel_program, s.discount_usd_per_gallon])).toEqual([
      ['ta', true, 0],
      ['loves', true, 0.12],
    ]);
  });

  it('without it, every station, each saying whether the program accepts it', async () => {
    const d = deps(stations, required);
    const result = nearbyStationsResource(await nearbyStations(d, principal, 'flt_1', query), NOW);
    expect(result.data.map((s) => [s.id, s.in_fuel_program])).toEqual([
      ['petro', false],
      ['ta', true],
    ]);
  });

  it('filters to the chains of a program whose rule is none, while in_fuel_program stays null', async () => {
    const d = deps(stations, { ...required, rule: 'none' });
    const result = nearbyStationsResource(
      await nearbyStations(d, principal, 'flt_1', { ...query, accepted_only: true }),
      NOW,
    );
    expect(result.data.map((s) => [s.id, s.in_fuel_program])).toEqual([
      ['ta', null],
      ['loves', null],
    ]);
  });

  it('refuses accepted_only for a fleet without a program: 422 on accepted_only, nothing charged or counted', async () => {
    const d = deps(stations, NO_FUEL_PROGRAM);
    const error = await nearbyStations(d, principal, 'flt_1', { ...query, accepted_only: true }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe('validation_failed');
    expect((error as ApiError).extensions.errors).toEqual([
      {
        field: 'accepted_only',
        message: 'the fleet has no fuel card program: set fuel_program with PATCH /v1/fleet',
      },
    ]);
    expect(d.counters.addUsageWithin).not.toHaveBeenCalled();
    // Bad input is not a query: the enumeration guard never counts it.
    expect(d.guard).not.toHaveBeenCalled();
  });

  it('refuses accepted_only along a route before the guard counts it or a route is computed', async () => {
    const d = {
      ...deps(stations, NO_FUEL_PROGRAM),
      fleetPlanning: { get: vi.fn(async () => ({ program: NO_FUEL_PROGRAM, truckProfile: null })) },
      router: { route: vi.fn(async () => Promise.reject(new Error('no route wanted'))) },
    };
    const error = await stationsAlongRoute(d as unknown as CorridorDeps, principal, 'flt_1', {
      origin: { latitude: 32, longitude: -97 },
      destination: { latitude: 33, longitude: -97 },
      corridor_width_miles: 2,
      max_results: 10,
      accepted_only: true,
    } as AlongRouteBody).catch((e: unknown) => e);
    expect((error as ApiError).code).toBe('validation_failed');
    expect((error as ApiError).extensions.errors).toMatchObject([{ field: 'accepted_only' }]);
    expect(d.guard).not.toHaveBeenCalled();
    expect(d.router.route).not.toHaveBeenCalled();
  });
});

describe('the catalog provider', () => {
  it('switches to an imported catalog when the pointer appears, after the pointer TTL', async () => {
    let now = NOW;
    let pointer: CatalogPointer | null = null;
    const load = vi.fn(async () => [station('imported', 32)]);
    const provider = createCatalogProvider({
      store: { current: async () => pointer, load },
      synthetic: () => ({ version: 'synthetic-1', stations: [station('synthetic', 32)] }),
      now: () => now,
    });
    expect((await provider.current()).version).toBe('synthetic-1');
    pointer = {
      version: 'import-1',
      count: 1,
      importedAt: '',
      source: 'feed.csv',
      newestPriceUpdatedAt: null,
    };
    expect((await provider.current()).version).toBe('synthetic-1');
    now += 60_000;
    const index = await provider.current();
    expect(index.version).toBe('import-1');
    expect(index.nearby(32, -97, 1, 5).map((n) => n.station.id)).toEqual(['imported']);
    now += 60_000;
    await provider.current();
    expect(load).toHaveBeenCalledTimes(1);
  });
});
