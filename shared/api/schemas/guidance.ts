import * as z from 'zod';
import { GUIDANCE_PHASE_VALUES, GUIDANCE_PHASES, PHASE_TRANSITIONS } from '../../domain/guidance/phases.ts';
import { GUIDANCE_POLICY } from '../../domain/guidance/policy.ts';
import { minArrivalFuelPercentRequest, optionalReason, publicId, timestamp, vehicleRef } from './common.ts';
import { freshnessGrade } from './locations.ts';
import { plannedStationSchema } from './routes.ts';

const latitude = z.number().min(-90).max(90);
const longitude = z.number().min(-180).max(180);

export const startGuidanceBody = z
  .strictObject({
    destination: z.strictObject({
      latitude,
      longitude,
      name: z
        .string()
        .trim()
        .min(1)
        .max(200)
        .optional()
        .meta({ description: 'Label used in drivers’ reasons' }),
    }),
    min_arrival_fuel_percent: minArrivalFuelPercentRequest,
  })
  .meta({ id: 'StartGuidanceRequest' });
export type StartGuidanceBody = z.infer<typeof startGuidanceBody>;

export const skipStopBody = z
  .strictObject({
    reason: optionalReason('Why the driver skipped it (kept on the session’s skipped_stops)'),
  })
  .meta({ id: 'SkipStopRequest' });

export const guidanceParams = z.object({ id: vehicleRef });
export const guidanceStopParams = z.object({ id: vehicleRef, stopId: publicId('guidanceStop') });

const phaseDescription = [
  'Phases:',
  ...GUIDANCE_PHASES.map((p) => `- \`${p.phase}\`: ${p.description}`),
  '',
  'Transitions:',
  ...PHASE_TRANSITIONS.map((t) => `- ${t.from} → ${t.to}: ${t.when}`),
].join('\n');

export const guidancePhase = z
  .enum(GUIDANCE_PHASE_VALUES)
  .meta({ id: 'GuidancePhase', description: phaseDescription });

const guidanceStopSchema = z
  .object({
    id: publicId('guidanceStop'),
    station: plannedStationSchema,
    miles_ahead: z.number().meta({ description: 'Road miles from the vehicle to the exit for the station' }),
    detour_miles: z.number().meta({ description: 'Extra miles driven to stop: off the route and back' }),
    gallons_to_buy: z.number().nullable().meta({
      description: 'Null when the fuel level is estimated (no fuel_level_percent in recent breadcrumbs)',
    }),
    price_usd_per_gallon: z.number(),
    discount_usd_per_gallon: z.number(),
    net_price_usd_per_gallon: z
      .number()
      .meta({ description: 'price_usd_per_gallon − discount_usd_per_gallon' }),
    price_is_stale: z.boolean(),
    reason: z.string().meta({ description: 'Driver-ready explanation' }),
    state: z.enum(['recommended', 'acknowledged']),
    recommended_at: timestamp,
    acknowledged_at: timestamp.nullable(),
  })
  .meta({ id: 'GuidanceStop' });

export const guidanceSchema = z
  .object({
    id: publicId('guidance'),
    vehicle_id: publicId('vehicle'),
    status: z.enum(['active', 'completed', 'cancelled', 'superseded']),
    phase: guidancePhase,
    destination: z.object({ latitude: z.number(), longitude: z.number(), name: z.string().nullable() }),
    min_arrival_fuel_percent: z.number().meta({
      description:
        "The margin in force: the start request's value, or the fleet's default_min_arrival_fuel_percent when the request omitted it",
    }),
    stops: z.array(guidanceStopSchema).meta({
      description: `Recommended stops in route order; with phase stop_recommended, stops[0] is the cheapest on-route stop. Within ${GUIDANCE_POLICY.approachRadiusMiles} road miles of stops[0] the phase is approaching_stop.`,
    }),
    skipped_stops: z.array(
      z.object({
        stop_id: publicId('guidanceStop'),
        station_id: z.string(),
        name: z.string(),
        reason: z.string().nullable(),
        skipped_at: timestamp,
      }),
    ),
    plan_reason: z
      .string()
      .nullable()
      .meta({ description: 'The plan’s one-line summary, or why there is none' }),
    remaining_miles: z.number().nullable(),
    projected_arrival_fuel_percent: z.number().nullable().meta({
      description: 'Fuel at the destination if the stops are followed; null without a feasible plan',
    }),
    position: z
      .object({
        latitude: z.number(),
        longitude: z.number(),
        recorded_at: timestamp,
        freshness: freshnessGrade,
      })
      .nullable(),
    fuel: z
      .object({
        level_percent: z.number(),
        source: z.enum(['reported', 'estimated']).meta({
          description: 'estimated: projected from the last reported level and the miles driven since',
        }),
        reported_at: timestamp.meta({ description: 'When the level it comes from was reported' }),
        freshness: freshnessGrade,
      })
      .nullable(),
    revision: z.number().int().meta({ description: 'Counts guidance.updated announcements of this session' }),
    created_at: timestamp,
    updated_at: timestamp,
    plan_updated_at: timestamp.nullable(),
  })
  .meta({ id: 'Guidance' });
