import type { TruckProfileSettings } from '#shared/fleets/domain/truck-profile.ts';
import type { FleetPlanningSettings } from '#shared/fleets/store/fleets.ts';
import { truckFor } from '#shared/fleets/usecases/truck-profiles.ts';
import { chainKey, type FuelProgram, programDiscounts } from '#shared/fuel-programs/domain/program.ts';
import type { FuelProgramSource } from '#shared/fuel-programs/usecases/fuel-programs.ts';
import { corridorStations, spreadAlongRoute } from '#shared/geo/corridor.ts';
import { decodeRoutePolyline } from '#shared/geo/polyline.ts';
import { roadMilesAlong } from '#shared/geo/road-miles.ts';
import type { RouteLine, RoutingEngine } from '#shared/geo/routing-engine.ts';
import type { GeoPoint } from '#shared/kernel/distance.ts';
import type { Principal } from '#shared/keys/domain/api-key.ts';
import type { Plan } from '#shared/plans/domain/plans.ts';
import type { Counters } from '#shared/plans/store/counters.ts';
import { chargeStationResults } from '#shared/plans/usecases/station-budget.ts';
import { ApiError } from '#shared/platform/errors.ts';
import { type AlongRouteBody, CORRIDOR_LIMITS } from '../api/schemas.ts';
import { corridorFootprint, nearbyFootprint, type QueryFootprint } from '../domain/enumeration-guard.ts';
import type { Station } from '../domain/station.ts';
import { stationPrice } from '../domain/station.ts';
import type { CatalogProvider } from './station-catalog.ts';

export interface StationQueryDeps {
  catalog: CatalogProvider;
  fuelPrograms: FuelProgramSource;
  plan: (name: string) => Promise<Plan | null>;
  counters: Pick<Counters, 'addUsage' | 'addUsageWithin'>;
  now: () => number;
  /** The enumeration guard ({@link guardStationQuery}): throws 403 `enumeration_suspected`. */
  guard: (principal: Principal, fleetId: string, footprint: QueryFootprint) => Promise<void>;
}

export interface NearbyQuery {
  latitude: number;
  longitude: number;
  radius_miles: number;
  chain?: string | undefined;
  fuel?: string | undefined;
  limit: number;
  /** Only stations whose chain is in the fleet's fuel card program. */
  accepted_only?: boolean;
}

/**
 * GET /v1/stations: nearest first, priced for the acting fleet. Every station returned is charged
 * to the account's station-query budget (docs/limits.md) before the answer leaves; a query that
 * would cross it is refused (station-budget.ts).
 */
export async function nearbyStations(
  deps: StationQueryDeps,
  principal: Principal,
  fleetId: string,
  query: NearbyQuery,
) {
  const plan = await deps.plan(principal.planName);
  if (plan && query.limit > plan.priceQueryCap) {
    throw new ApiError(
      'validation_failed',
      `limit is capped at ${plan.priceQueryCap} on the ${plan.name} plan.`,
      {
        extensions: {
          errors: [{ field: 'limit', message: `must be at most ${plan.priceQueryCap} on your plan` }],
        },
      },
    );
  }
  // The program first: a refused `accepted_only` is bad input, not a query the guard should count.
  const program = await deps.fuelPrograms.get(fleetId);
  const accept = stationFilter(query, program);
  // Guarded on what the radius covers, not only its centre: one wide query sees many cells.
  await deps.guard(
    principal,
    fleetId,
    nearbyFootprint({ latitude: query.latitude, longitude: query.longitude }, query.radius_miles),
  );
  const index = await deps.catalog.current();
  const found = index.nearby(query.latitude, query.longitude, query.radius_miles, query.limit, accept);
  await chargeStationResults(deps, principal, found.length, 'refuse', fleetId);
  return { stations: found, program, catalogVersion: index.version };
}

interface StationFilter {
  chain?: string | undefined;
  fuel?: string | undefined;
  accepted_only?: boolean | undefined;
}

/**
 * The optional `chain` (any case), `fuel` and `accepted_only` filters both station queries take.
 * `accepted_only` keeps the program's chains whatever its rule; a program without chains accepts
 * nothing, which is a question the fleet cannot have meant (422, not an empty answer).
 */
function stationFilter(filter: StationFilter, program: FuelProgram) {
  const chain = filter.chain?.toLowerCase();
  const fuel = filter.fuel?.toLowerCase();
  const accepted = filter.accepted_only ? acceptedChainKeys(program) : null;
  return (station: Station) =>
    (!chain || station.chain.toLowerCase() === chain) &&
    (!fuel || station.fuels.includes(fuel)) &&
    (!accepted || accepted.has(chainKey(station.chain)));
}

function acceptedChainKeys(program: FuelProgram): ReadonlySet<string> {
  if (program.chains.length === 0) {
    throw new ApiError(
      'validation_failed',
      'accepted_only needs a fuel card program, and the fleet has none.',
      {
        hint: 'set fuel_program with PATCH /v1/fleet (or PATCH /v1/fleets/{id}), or leave accepted_only out',
        extensions: {
          errors: [
            {
              field: 'accepted_only',
              message: 'the fleet has no fuel card program: set fuel_program with PATCH /v1/fleet',
            },
          ],
        },
      },
    );
  }
  return new Set(program.chains.map(({ chain }) => chainKey(chain)));
}

export interface CorridorDeps extends Omit<StationQueryDeps, 'fuelPrograms'> {
  router: RoutingEngine;
  /** The fleet's program (discounts, accepted stations) and default truck (the route between two points), in one read. */
  fleetPlanning: { get(fleetId: string): Promise<FleetPlanningSettings> };
}

/**
 * POST /v1/stations/along-route: stations within the corridor of a client's polyline or of the
 * route between two points, in route order, at most `max_results` spread along the route.
 */
export async function stationsAlongRoute(
  deps: CorridorDeps,
  principal: Principal,
  fleetId: string,
  body: AlongRouteBody,
) {
  const drawn = body.polyline !== undefined ? lineFromPolyline(body.polyline) : null;
  // The program first: a refused `accepted_only` is bad input, counted by no guard, routed nowhere.
  const { program, truckProfile } = await deps.fleetPlanning.get(fleetId);
  const accept = stationFilter(body, program);
  // Guarded on the areas the corridor covers, before any routing is spent on a refused key: the
  // client's polyline, or the straight line between the two ends (the schema guarantees both when
  // no polyline is given), which the computed route follows closely enough at the areas' scale.
  await deps.guard(
    principal,
    fleetId,
    corridorFootprint(drawn ? drawn.points : [body.origin as GeoPoint, body.destination as GeoPoint]),
  );
  const line = drawn ?? (await routedLine(deps, truckProfile, body));
  const routeMiles = line.cumulativeMiles.at(-1) ?? 0;
  if (routeMiles > CORRIDOR_LIMITS.maxRouteMiles) {
    const field = body.polyline !== undefined ? 'polyline' : 'destination';
    throw new ApiError(
      'validation_failed',
      `The route is ${Math.round(routeMiles)} miles; at most ${CORRIDOR_LIMITS.maxRouteMiles} are searched.`,
      {
        extensions: {
          errors: [{ field, message: `route must be at most ${CORRIDOR_LIMITS.maxRouteMiles} miles` }],
        },
      },
    );
  }
  const index = await deps.catalog.current();
  const discounts = programDiscounts(program);
  const inCorridor = corridorStations(index, line, body.corridor_width_miles).filter(({ station }) =>
    accept(station),
  );
  const chosen = spreadAlongRoute(
    inCorridor,
    body.max_results,
    routeMiles,
    ({ station }) => stationPrice(station, discounts).net,
  );
  await chargeStationResults(deps, principal, chosen.length, 'refuse', fleetId);
  return { stations: chosen, program, routeMiles, catalogVersion: index.version };
}

function lineFromPolyline(encoded: string): RouteLine {
  let points: GeoPoint[];
  try {
    points = decodeRoutePolyline(encoded);
  } catch {
    points = [];
  }
  if (points.length < 2) {
    throw new ApiError('validation_failed', 'The polyline could not be decoded into a route.', {
      extensions: {
        errors: [
          {
            field: 'polyline',
            message: 'must be a Google encoded polyline (precision 5) of at least two points',
          },
        ],
      },
    });
  }
  // Road miles, as a route's: the route's own polyline reads its distance_miles and stop miles.
  return roadMilesAlong(points);
}

/** The route between the body's two points, for the fleet's truck (the request names no vehicle). */
async function routedLine(
  deps: Pick<CorridorDeps, 'router'>,
  fleetTruck: TruckProfileSettings,
  body: AlongRouteBody,
): Promise<RouteLine> {
  // The schema guarantees both points in this form.
  return deps.router.route({
    origin: body.origin as GeoPoint,
    destination: body.destination as GeoPoint,
    truck: truckFor(null, { truckProfile: fleetTruck }).profile,
  });
}
