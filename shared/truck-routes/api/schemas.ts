import * as z from 'zod/mini';
import {
  minArrivalFuelPercentRequest,
  nullableNumber,
  publicId,
  timestamp,
  vehicleRef,
} from '#shared/api/common-schemas.ts';
import { deprecated } from '#shared/api/deprecated-schemas.ts';
import { physical } from '#shared/api/ranges.ts';
import {
  effectiveTruckProfileSchema,
  truckProfileSourcesSchema,
} from '#shared/fleets/api/truck-profile-schemas.ts';
import { fuelTaxTreatment } from '#shared/fuel-tax/api/schemas.ts';
import { CORRIDOR_LIMITS } from '#shared/stations/api/schemas.ts';
import { fuelLevelSource } from '#shared/tracking/api/fuel-level-schemas.ts';

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

/** The basis an answer priced fuel on (the vehicle's override, else the fleet's setting). */
export const answerFuelTaxTreatment = fuelTaxTreatment.check(
  z.meta({
    description:
      'The price basis used: `ifta` (effective price = pump − discount − the state tax credited on the IFTA return) or `pump` (pump − discount)',
  }),
);

/** A stop's price basis, as route stops, trip fuel stops and guidance stops all show it. */
export const stopPriceBasisShape = {
  state: z
    .nullable(z.string())
    .check(z.meta({ description: 'Two-letter state of the station; null when unknown' })),
  state_tax_usd_per_gallon: nullableNumber(
    'The state diesel tax included in the pump price (the IFTA rate in force); null when the tax table lacks the state',
  ),
  effective_price_usd_per_gallon: z.number().check(
    z.meta({
      description:
        'What a gallon really costs the fleet: net_price_usd_per_gallon − state_tax_usd_per_gallon under `ifta`, net_price_usd_per_gallon under `pump`. The price the plan minimizes',
    }),
  ),
};

/** Whether the fleet's card is accepted at a planned stop (route, trip and guidance stops). */
export const inFuelProgramMember = z.nullable(z.boolean()).check(
  z.meta({
    description:
      "Whether the fleet's fuel card program accepts the station's chain; null when the program's rule is `none` (acceptance is not a question plans ask). A stop under a `preferred` program may be false: its reason then gives the penalty and what it saves over the best accepted stop in reach",
  }),
);

/** A fuel plan's status, as route, trip and guidance plans show it. */
export const fuelPlanStatus = z
  .enum(['ok', 'no_stop_needed', 'infeasible', 'no_accepted_station_in_range'])
  .check(
    z.meta({
      description:
        '`ok`: stops planned; `no_stop_needed`: the fuel on board reaches the destination; `infeasible`: no plan reaches it (the reason says which stretch cannot be covered); `no_accepted_station_in_range`: under a `required` fuel card program, no plan over the accepted stations reaches it while one over every station would — never an off-program stop: the stops are the accepted ones up to the last fill within reach before the stretch no accepted station covers (none when no accepted stop is within reach), and fuel_program_shortfall says how far short the tank falls from there',
    }),
  );

/** Why a `required` fuel card program leaves no plan (routes, trips and guidance). */
export const fuelProgramShortfallSchema = z
  .nullable(
    z
      .object({
        code: z.enum(['no_accepted_station_in_range']),
        nearest_accepted_stop: z
          .nullable(
            z.object({
              station_id: z.string(),
              name: z.string(),
              chain: z.nullable(z.string()),
              state: z.nullable(z.string()),
              latitude: z.nullable(z.number()),
              longitude: z.nullable(z.number()),
              miles_along_route: z.number().check(
                z.meta({
                  description: "Road miles from the plan's start (the truck) to the exit for the station",
                }),
              ),
              detour_miles: z.number().check(z.meta({ description: 'Off the route and back' })),
            }),
          )
          .check(
            z.meta({
              description:
                'The first station on the program beyond the range above the reserve from the last point the plan could fill up (its last stop, or the truck when it has none); null when no accepted station lies ahead at all',
            }),
          ),
        shortfall_miles: nullableNumber(
          'How far beyond the range above the reserve that stop lies (its detour counted), to 0.1 mile',
        ),
        shortfall_gallons: nullableNumber(
          'shortfall_miles ÷ the truck’s mpg, to 0.1 gal: the fuel missing to reach it above the reserve',
        ),
      })
      .check(z.meta({ id: 'FuelProgramShortfall' })),
  )
  .check(
    z.meta({
      description: 'Null unless the plan status is `no_accepted_station_in_range`',
    }),
  );

/** What a purchase would cost without our advice. */
export const purchaseCounterfactualSchema = z
  .object({
    pump_price_usd_per_gallon: z.number().check(
      z.meta({
        description: 'Mean of (posted price − credited tax) over the stations in reach: no card, no advice',
      }),
    ),
    net_price_usd_per_gallon: z.number().check(
      z.meta({
        description:
          'Mean of (posted price − the fleet discount there − credited tax) over the same stations: the card, no advice',
      }),
    ),
    station_count: z
      .number()
      .check(
        z.int(),
        z.meta({ description: 'Stations in reach for this purchase, the stop itself included' }),
      ),
  })
  .check(
    z.meta({
      id: 'PurchaseCounterfactual',
      description:
        'The stations the truck could have bought at instead: from the previous purchase (or the start) as far as the fuel on board there reaches keeping the reserve',
    }),
  );

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
  ...stopPriceBasisShape,
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
      status: fuelPlanStatus,
      reason: z.string(),
      stops: z.array(
        z.object({
          ...plannedPurchaseShape,
          counterfactual: purchaseCounterfactualSchema,
          price_is_stale: z.boolean(),
          cost_usd: money.check(z.meta({ description: 'gallons × net price: what the pump charges' })),
          effective_cost_usd: money.check(
            z.meta({ description: 'gallons_to_buy × effective_price_usd_per_gallon, to the cent' }),
          ),
          in_fuel_program: inFuelProgramMember,
          reason: z.string(),
        }),
      ),
      fuel_program_shortfall: fuelProgramShortfallSchema,
      fuel_tax_treatment: answerFuelTaxTreatment,
      total_cost_usd: money,
      total_gallons: z.number(),
      arrival_fuel_gallons: z.nullable(z.number()),
      arrival_fuel_percent: z.nullable(z.number()),
    }),
    baseline: z
      .object({
        strategy: z.enum(['mean_price_in_reach', 'fill_to_full_below_quarter']).check(
          z.meta({
            description:
              '`mean_price_in_reach`: the counterfactual, what every plan is compared with. `fill_to_full_below_quarter` (fill to full whenever the tank falls below a quarter) appears only on a route or trip plan stored before the counterfactual replaced it, replayed as it was',
          }),
        ),
        description: z.string().check(z.meta({ description: 'The counterfactual in a sentence' })),
        fuel_tax_treatment: answerFuelTaxTreatment,
        feasible: z
          .boolean()
          .check(
            deprecated(
              'False when the plan is infeasible (then every figure is 0). The counterfactual buys where the plan buys, so it is feasible exactly when the plan is',
              'plan.status',
            ),
          ),
        stop_count: z
          .number()
          .check(
            z.int(),
            deprecated("The plan's stop count: the counterfactual buys at the plan's stops", 'plan.stops'),
          ),
        gallons: z.number().check(z.meta({ description: "The plan's gallons (the same purchases)" })),
        cost_usd: money.check(
          z.meta({
            description:
              "Σ over the stops of gallons_to_buy × counterfactual.net_price_usd_per_gallon, each to the cent: the fleet's card, no advice on where to buy",
          }),
        ),
        pump_cost_usd: money.check(
          z.meta({
            description:
              'Σ over the stops of gallons_to_buy × counterfactual.pump_price_usd_per_gallon, each to the cent: neither card nor advice',
          }),
        ),
        arrival_fuel_gallons: z
          .number()
          .check(
            deprecated(
              "The plan's arrival fuel: the counterfactual buys the same gallons, so it arrives with the same",
              'plan.arrival_fuel_gallons',
            ),
          ),
        arrival_fuel_percent: z
          .number()
          .check(
            deprecated(
              "The plan's arrival fuel as a percentage of the tank, to 0.1",
              'plan.arrival_fuel_percent',
            ),
          ),
      })
      .check(
        z.meta({
          id: 'RouteBaseline',
          description:
            "What the plan is compared with: the plan's own purchases, each at the mean price of the stations in reach for it. On an infeasible plan: `feasible` false and every figure 0",
        }),
      ),
    savings: z
      .nullable(
        z.object({
          usd: money.check(
            z.meta({
              description:
                'counterfactual_cost_usd − plan_cost_usd (= routing_savings_usd): what choosing where to buy saved; negative if the plan costs more',
            }),
          ),
          percent: z
            .number()
            .check(z.meta({ description: 'usd as a percentage of counterfactual_cost_usd, to 0.1' })),
          basis: z.literal('same_arrival_fuel').check(
            z.meta({
              description:
                'Like for like: the counterfactual buys the same gallons at the same points (at the mean price of the stations in reach), so both arrive with the same fuel and the costs compare directly',
            }),
          ),
          fuel_tax_treatment: answerFuelTaxTreatment,
          counterfactual_cost_usd: money.check(z.meta({ description: 'baseline.cost_usd' })),
          plan_cost_usd: money.check(
            z.meta({ description: "Σ the stops' effective_cost_usd: the plan on the same price basis" }),
          ),
          routing_savings_usd: money.check(
            z.meta({
              description: 'counterfactual_cost_usd − plan_cost_usd: the part from where the plan buys',
            }),
          ),
          card_savings_usd: money.check(
            z.meta({
              description:
                "baseline.pump_cost_usd − baseline.cost_usd: what the fleet's card is worth on this corridor wherever the truck buys; not counted in usd",
            }),
          ),
          baseline_cost_usd: money.check(
            deprecated('The counterfactual cost (both arrive with the same fuel)', 'counterfactual_cost_usd'),
          ),
          extra_arrival_fuel_gallons: z
            .number()
            .check(
              deprecated(
                'Always 0: the counterfactual arrives with the plan’s fuel',
                'baseline.arrival_fuel_gallons',
              ),
            ),
          fuel_value_usd_per_gallon: money.check(
            deprecated(
              "The price a gallon in the tank is valued at: the mean effective price of the route's stations (on fuel_tax_treatment's basis)",
              'counterfactual_cost_usd',
            ),
          ),
          extra_arrival_fuel_value_usd: money.check(
            deprecated('Always 0: there is no arrival fuel to value', 'counterfactual_cost_usd'),
          ),
          description: z
            .string()
            .check(z.meta({ description: 'The comparison in words, with these figures' })),
        }),
      )
      .check(
        z.meta({
          id: 'RouteSavings',
          description:
            'Null when the plan is infeasible or buys nothing (no_stop_needed): no purchase, nothing to compare',
        }),
      ),
    candidate_station_count: z.number().check(
      z.int(),
      z.meta({
        description:
          'The corridor stations the plan chose from: under a `required` fuel card program, the accepted ones only',
      }),
    ),
    catalog_version: z.string(),
    routing_engine: z.object({ name: z.string(), data_version: z.string() }),
    truck_profile: effectiveTruckProfileSchema,
    truck_profile_sources: truckProfileSourcesSchema,
  })
  .check(z.meta({ id: 'Route' }));

export const truckRouteIdParams = z.object({ id: publicId('route') });
