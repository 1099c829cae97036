import * as z from 'zod';
import { publicId, timestamp } from './common.ts';

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
    diesel_price_usd_per_gallon: z.number().meta({ description: 'Posted price' }),
    discount_usd_per_gallon: z.number().meta({ description: "The acting fleet's discount at this chain" }),
    net_price_usd_per_gallon: z.number().meta({ description: 'Posted price minus discount' }),
    price_updated_at: timestamp,
    price_is_stale: z.boolean().meta({ description: 'The price is older than 48 hours' }),
  })
  .meta({ id: 'Station' });

export const nearbyStationSchema = stationSchema
  .extend({ distance_miles: z.number().meta({ description: 'Straight-line distance from the query point' }) })
  .meta({ id: 'NearbyStation' });

export const nearbyStationsQuery = z.object({
  latitude: z.coerce.number().min(-90).max(90),
  longitude: z.coerce.number().min(-180).max(180),
  radius_miles: z.coerce
    .number()
    .positive()
    .max(NEARBY_LIMITS.maxRadiusMiles)
    .default(NEARBY_LIMITS.defaultRadiusMiles)
    .meta({
      description: `Default ${NEARBY_LIMITS.defaultRadiusMiles}, at most ${NEARBY_LIMITS.maxRadiusMiles}.`,
    }),
  chain: z.string().trim().min(1).max(100).optional().meta({ description: 'Exact chain name, e.g. `TA`' }),
  fuel: z
    .string()
    .trim()
    .min(1)
    .max(20)
    .optional()
    .meta({ description: 'A fuel the station must sell: `diesel`, `def`' }),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(NEARBY_LIMITS.maxLimit)
    .default(NEARBY_LIMITS.defaultLimit)
    .meta({
      description: `Default ${NEARBY_LIMITS.defaultLimit}; at most ${NEARBY_LIMITS.maxLimit} and the plan's price-query cap.`,
    }),
});

export const nearbyStationsResponse = z
  .object({
    data: z.array(nearbyStationSchema),
    next_cursor: z.null().meta({ description: 'Always null: a radius query is one page' }),
    catalog_version: z.string(),
  })
  .meta({ id: 'NearbyStations' });

/** Spec section 8: corridor at most 5 miles, at most 50 results, routes at most 3,500 miles. */
export const CORRIDOR_LIMITS = {
  maxWidthMiles: 5,
  defaultWidthMiles: 2,
  maxResults: 50,
  defaultResults: 25,
  maxRouteMiles: 3500,
} as const;

export const geoPoint = z
  .strictObject({ latitude: z.number().min(-90).max(90), longitude: z.number().min(-180).max(180) })
  .meta({ id: 'GeoPoint' });

export const alongRouteBody = z
  .strictObject({
    polyline: z
      .string()
      .min(2)
      .max(200_000)
      .optional()
      .meta({ description: 'Google encoded polyline, precision 5, of the route to search along' }),
    origin: geoPoint.optional(),
    destination: geoPoint.optional(),
    corridor_width_miles: z
      .number()
      .positive()
      .max(CORRIDOR_LIMITS.maxWidthMiles)
      .default(CORRIDOR_LIMITS.defaultWidthMiles)
      .meta({
        description: `Default ${CORRIDOR_LIMITS.defaultWidthMiles}, at most ${CORRIDOR_LIMITS.maxWidthMiles}`,
      }),
    max_results: z
      .number()
      .int()
      .min(1)
      .max(CORRIDOR_LIMITS.maxResults)
      .default(CORRIDOR_LIMITS.defaultResults)
      .meta({
        description: `Default ${CORRIDOR_LIMITS.defaultResults}, at most ${CORRIDOR_LIMITS.maxResults}`,
      }),
    chain: z.string().trim().min(1).max(100).optional(),
    fuel: z.string().trim().min(1).max(20).optional(),
  })
  .superRefine((body, ctx) => {
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
  })
  .meta({ id: 'AlongRouteRequest' });

export const corridorStationSchema = stationSchema
  .extend({
    miles_along_route: z.number(),
    off_route_miles: z.number().meta({ description: 'One way, from the route to the station' }),
    detour_miles: z.number().meta({ description: 'Extra miles driven to stop: off the route and back' }),
  })
  .meta({ id: 'CorridorStation' });

export const alongRouteResponse = z
  .object({
    data: z.array(corridorStationSchema),
    next_cursor: z.null(),
    route_distance_miles: z.number(),
    catalog_version: z.string(),
  })
  .meta({ id: 'AlongRouteStations' });

export type AlongRouteBody = z.infer<typeof alongRouteBody>;
