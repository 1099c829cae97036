import * as z from 'zod/mini';
import { minArrivalFuelPercentRequest, publicId, timestamp, vehicleRef } from './common.ts';
import { fuelLevelSource } from './fuel-level.ts';
import { physical } from './ranges.ts';
import { CORRIDOR_LIMITS } from './stations.ts';

const place = z
  .strictObject({
    latitude: z.number().check(z.minimum(-90), z.maximum(90)),
    longitude: z.number().check(z.minimum(-180), z.maximum(180)),
    name: z
      .optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(200)))
      .check(z.meta({ description: 'Label used in driver reasons' })),
  })
  .check(z.meta({ id: 'Place' }));

/** In responses the shape is fixed: `name` is null when none was given. */
const placeOut = z
  .object({ latitude: z.number(), longitude: z.number(), name: z.nullable(z.string()) })
  .check(z.meta({ id: 'RoutePlace' }));

const percent = z.number().check(z.minimum(0), z.maximum(100));

/** A station as a plan names it (routes and guidance stops). */
export const plannedStationSchema = z.object({
  id: z.string(),
  name: z.string(),
  chain: z.string(),
  latitude: z.number(),
  longitude: z.number(),
  address: z.string(),
});

/**
 * A purchase the fuel plan makes, as a route's plan and a trip's fuel stop both show it (each adds
 * its own fields after these).
 */
export const plannedPurchaseShape = {
  station: plannedStationSchema,
  miles_along_route: z.number(),
  detour_miles: z.number(),
  gallons_to_buy: z.number(),
  price_usd_per_gallon: z.number(),
  discount_usd_per_gallon: z.number(),
  net_price_usd_per_gallon: z.number(),
};

/**
 * Two forms in one body (decided): with `vehicle_id` the vehicle's latest position, fuel level,
 * tank and mpg are used; without it, `origin`, `tank_size_gallons`, `estimated_mpg` and
 * `fuel_level_percent` are required. Mixing the forms is refused, so nothing is silently ignored.
 */
export const createRouteBody = z
  .strictObject({
    vehicle_id: z.optional(vehicleRef),
    origin: z.optional(place),
    destination: place,
    tank_size_gallons: z.optional(physical('tank_size_gallons')),
    estimated_mpg: z.optional(physical('estimated_mpg')),
    fuel_level_percent: z.optional(percent),
    min_arrival_fuel_percent: minArrivalFuelPercentRequest,
    corridor_width_miles: z
      ._default(
        z.number().check(z.positive(), z.maximum(CORRIDOR_LIMITS.maxWidthMiles)),
        CORRIDOR_LIMITS.defaultWidthMiles,
      )
      .check(z.meta({ description: 'How far off the route candidate stations may be' })),
  })
  .check(
    z.superRefine((body, ctx) => {
      const manual = ['origin', 'tank_size_gallons', 'estimated_mpg', 'fuel_level_percent'] as const;
      for (const field of manual) {
        if (body.vehicle_id !== undefined && body[field] !== undefined) {
          ctx.addIssue({
            code: 'custom',
            path: [field],
            message: 'is not allowed with vehicle_id (the vehicle supplies it)',
          });
        }
        if (body.vehicle_id === undefined && body[field] === undefined) {
          ctx.addIssue({ code: 'custom', path: [field], message: 'is required without vehicle_id' });
        }
      }
    }),
    z.meta({ id: 'CreateRouteRequest' }),
  );

export type CreateRouteBody = z.infer<typeof createRouteBody>;

const money = z.number().check(z.meta({ description: 'USD' }));

export const truckRouteSchema = z
  .object({
    id: publicId('route'),
    created_at: timestamp,
    vehicle_id: z.nullable(z.string()),
    origin: placeOut,
    destination: placeOut,
    distance_miles: z.number().check(
      z.meta({
        description:
          'Road miles: each interstate stretch’s published or estimated miles, and 1.3 road miles per straight mile on local roads to and from the interstate. POST /v1/stations/along-route with this polyline reads the same miles',
      }),
    ),
    duration_minutes: z.number(),
    polyline: z.string().check(z.meta({ description: 'Google encoded polyline, precision 5' })),
    legs: z.array(z.object({ road: z.string(), from: z.string(), to: z.string(), miles: z.number() })),
    fuel: z.object({
      tank_size_gallons: z.number(),
      estimated_mpg: z.number(),
      start_fuel_percent: z.number(),
      fuel_level_source: fuelLevelSource,
      fuel_level_as_of: timestamp.check(
        z.meta({
          description:
            'The moment start_fuel_percent describes: the breadcrumb it was reported or projected to (the request’s time for the manual form and an assumed level without a breadcrumb)',
        }),
      ),
      min_arrival_fuel_percent: z.number().check(
        z.meta({
          description:
            "The margin in force: the request's value, or the fleet's default_min_arrival_fuel_percent when the request omitted it",
        }),
      ),
      reserve_gallons: z.number(),
      min_purchase_gallons: z.number(),
    }),
    plan: z.object({
      status: z.enum(['ok', 'no_stop_needed', 'infeasible']),
      reason: z.string(),
      stops: z.array(
        z.object({
          ...plannedPurchaseShape,
          price_is_stale: z.boolean(),
          cost_usd: money,
          reason: z.string(),
        }),
      ),
      total_cost_usd: money,
      total_gallons: z.number(),
      arrival_fuel_gallons: z.nullable(z.number()),
      arrival_fuel_percent: z.nullable(z.number()),
    }),
    baseline: z
      .object({
        strategy: z.literal('fill_to_full_below_quarter'),
        description: z.string().check(z.meta({ description: 'The baseline strategy in a sentence' })),
        feasible: z
          .boolean()
          .check(z.meta({ description: 'False when following the baseline runs the tank dry' })),
        stop_count: z.number().check(z.int()),
        gallons: z.number(),
        cost_usd: money,
        arrival_fuel_gallons: z.number(),
        arrival_fuel_percent: z.number(),
      })
      .check(
        z.meta({
          id: 'RouteBaseline',
          description: 'What the plan is compared with: the naive strategy simulated on the same stations',
        }),
      ),
    savings: z
      .nullable(
        z.object({
          usd: money.check(
            z.meta({ description: 'baseline_cost_usd − plan_cost_usd; negative if the plan costs more' }),
          ),
          percent: z
            .number()
            .check(z.meta({ description: 'usd as a percentage of baseline_cost_usd, to 0.1' })),
          basis: z.literal('same_arrival_fuel').check(
            z.meta({
              description:
                "Like for like: the baseline's cost is brought to the plan's arrival fuel before the two are compared",
            }),
          ),
          baseline_cost_usd: money.check(
            z.meta({
              description:
                "baseline.cost_usd − extra_arrival_fuel_value_usd: the baseline's cost to arrive with the plan's fuel",
            }),
          ),
          plan_cost_usd: money.check(z.meta({ description: 'plan.total_cost_usd' })),
          extra_arrival_fuel_gallons: z.number().check(
            z.meta({
              description:
                'baseline.arrival_fuel_gallons − plan.arrival_fuel_gallons (negative when the baseline arrives with less)',
            }),
          ),
          fuel_value_usd_per_gallon: money.check(
            z.meta({
              description:
                'The price that difference is valued at: the mean net price of the stations on the route',
            }),
          ),
          extra_arrival_fuel_value_usd: money.check(
            z.meta({ description: 'extra_arrival_fuel_gallons × fuel_value_usd_per_gallon' }),
          ),
          description: z
            .string()
            .check(z.meta({ description: 'The comparison in words, with these figures' })),
        }),
      )
      .check(
        z.meta({
          id: 'RouteSavings',
          description: 'Null when the plan or the baseline is infeasible: there is nothing fair to compare',
        }),
      ),
    candidate_station_count: z.number().check(z.int()),
    catalog_version: z.string(),
    routing_engine: z.object({ name: z.string(), data_version: z.string() }),
  })
  .check(z.meta({ id: 'Route' }));

export const truckRouteIdParams = z.object({ id: publicId('route') });
