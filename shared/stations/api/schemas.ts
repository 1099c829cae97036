import * as z from 'zod/mini';
import { extendWithoutMeta, publicId, timestamp } from '#shared/api/common-schemas.ts';
import { queryInteger, queryNumber } from '#shared/api/query-numbers.ts';

/** Spec section 8: radius at most 50 miles; limit at most 25 and at most the plan's price-query cap. */
export const NEARBY_LIMITS = {
  maxRadiusMiles: 50,
  defaultRadiusMiles: 25,
  maxLimit: 25,
  defaultLimit: 10,
} as const;

export const stationSchema = z
  .object({
    id: publicId('station'),
    name: z.string(),
    chain: z.string(),
    latitude: z.number(),
    longitude: z.number(),
    address: z.string(),
    state: z.string(),
    amenities: z.array(z.string()),
    fuels: z.array(z.string()),
    diesel_price_usd_per_gallon: z.number().check(z.meta({ description: 'Posted price' })),
    discount_usd_per_gallon: z
      .number()
      .check(z.meta({ description: "The acting fleet's discount at this chain" })),
    net_price_usd_per_gallon: z.number().check(z.meta({ description: 'Posted price minus discount' })),
    price_updated_at: timestamp,
    price_is_stale: z.boolean().check(z.meta({ description: 'The price is older than 48 hours' })),
    in_fuel_program: z.nullable(z.boolean()).check(
      z.meta({
        description:
          "Whether the acting fleet's fuel card program accepts this station's chain; null when the program's rule is `none` (acceptance does not steer plans)",
      }),
    ),
  })
  .check(z.meta({ id: 'Station' }));

const ACCEPTED_ONLY_DESCRIPTION =
  "Only stations whose chain is in the acting fleet's fuel card program (whatever its rule). A fleet without a program gets 422.";

export const nearbyStationSchema = extendWithoutMeta(stationSchema, {
  distance_miles: z.number().check(z.meta({ description: 'Straight-line distance from the query point' })),
}).check(z.meta({ id: 'NearbyStation' }));

export const nearbyStationsQuery = z.object({
  latitude: queryNumber(z.minimum(-90), z.maximum(90)),
  longitude: queryNumber(z.minimum(-180), z.maximum(180)),
  radius_miles: z
    ._default(
      queryNumber(z.positive(), z.maximum(NEARBY_LIMITS.maxRadiusMiles)),
      NEARBY_LIMITS.defaultRadiusMiles,
    )
    .check(
      z.meta({
        description: `Default ${NEARBY_LIMITS.defaultRadiusMiles}, at most ${NEARBY_LIMITS.maxRadiusMiles}.`,
      }),
    ),
  chain: z
    .optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(100)))
    .check(z.meta({ description: 'Exact chain name, e.g. `TA`' })),
  fuel: z
    .optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(20)))
    .check(z.meta({ description: 'A fuel the station must sell: `diesel`, `def`' })),
  limit: z._default(queryInteger(1, NEARBY_LIMITS.maxLimit), NEARBY_LIMITS.defaultLimit).check(
    z.meta({
      description: `Default ${NEARBY_LIMITS.defaultLimit}; at most ${NEARBY_LIMITS.maxLimit} and the plan's price-query cap.`,
    }),
  ),
  accepted_only: z
    ._default(z.enum(['true', 'false'], { error: 'must be true or false' }), 'false')
    .check(z.meta({ description: `${ACCEPTED_ONLY_DESCRIPTION} Default false.` })),
});

export const nearbyStationsResponse = z
  .object({
    data: z.array(nearbyStationSchema),
    next_cursor: z.null().check(z.meta({ description: 'Always null: a radius query is one page' })),
    catalog_version: z.string(),
  })
  .check(z.meta({ id: 'NearbyStations' }));

/** Spec section 8: corridor at most 5 miles, at most 50 results, routes at most 3,500 miles. */
export const CORRIDOR_LIMITS = {
  maxWidthMiles: 5,
  defaultWidthMiles: 2,
  maxResults: 50,
  defaultResults: 25,
  maxRouteMiles: 3500,
} as const;

export const geoPoint = z
  .strictObject({
    latitude: z.number().check(z.minimum(-90), z.maximum(90)),
    longitude: z.number().check(z.minimum(-180), z.maximum(180)),
  })
  .check(z.meta({ id: 'GeoPoint' }));

export const alongRouteBody = z
  .strictObject({
    polyline: z
      .optional(z.string().check(z.minLength(2), z.maxLength(200_000)))
      .check(z.meta({ description: 'Google encoded polyline, precision 5, of the route to search along' })),
    origin: z.optional(geoPoint),
    destination: z.optional(geoPoint),
    corridor_width_miles: z
      ._default(
        z.number().check(z.positive(), z.maximum(CORRIDOR_LIMITS.maxWidthMiles)),
        CORRIDOR_LIMITS.defaultWidthMiles,
      )
      .check(
        z.meta({
          description: `Default ${CORRIDOR_LIMITS.defaultWidthMiles}, at most ${CORRIDOR_LIMITS.maxWidthMiles}`,
        }),
      ),
    max_results: z
      ._default(
        z.number().check(z.int(), z.minimum(1), z.maximum(CORRIDOR_LIMITS.maxResults)),
        CORRIDOR_LIMITS.defaultResults,
      )
      .check(
        z.meta({
          description: `Default ${CORRIDOR_LIMITS.defaultResults}, at most ${CORRIDOR_LIMITS.maxResults}`,
        }),
      ),
    chain: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(100))),
    fuel: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(20))),
    accepted_only: z
      ._default(z.boolean(), false)
      .check(z.meta({ description: `${ACCEPTED_ONLY_DESCRIPTION} Default false.` })),
  })
  .check(
    z.superRefine((body, ctx) => {
      const hasPolyline = body.polyline !== undefined;
      const hasPair = body.origin !== undefined || body.destination !== undefined;
      if (hasPolyline === hasPair) {
        ctx.addIssue({
          code: 'custom',
          path: ['polyline'],
          message: 'send either polyline, or origin and destination',
        });
      } else if (hasPair && !body.origin) {
        ctx.addIssue({ code: 'custom', path: ['origin'], message: 'is required with destination' });
      } else if (hasPair && !body.destination) {
        ctx.addIssue({ code: 'custom', path: ['destination'], message: 'is required with origin' });
      }
    }),
    z.meta({ id: 'AlongRouteRequest' }),
  );

export const corridorStationSchema = extendWithoutMeta(stationSchema, {
  miles_along_route: z.number().check(
    z.meta({
      description:
        'Road miles from the start of the route to the point of the route nearest the station: the miles POST /v1/routes gives its stops',
    }),
  ),
  off_route_miles: z.number().check(z.meta({ description: 'One way, from the route to the station' })),
  detour_miles: z
    .number()
    .check(z.meta({ description: 'Extra miles driven to stop: off the route and back' })),
}).check(z.meta({ id: 'CorridorStation' }));

export const alongRouteResponse = z
  .object({
    data: z.array(corridorStationSchema),
    next_cursor: z.null(),
    route_distance_miles: z.number().check(
      z.meta({
        description:
          'The route’s road miles, measured as POST /v1/routes measures them: a route’s own polyline reads its distance_miles; a polyline drawn elsewhere is measured along its points',
      }),
    ),
    catalog_version: z.string(),
  })
  .check(z.meta({ id: 'AlongRouteStations' }));

export type AlongRouteBody = z.infer<typeof alongRouteBody>;
