import * as z from 'zod/mini';
import {
  minArrivalFuelPercentRequest,
  nullableNumber,
  optionalReason,
  publicId,
  timestamp,
  vehicleRef,
} from '#shared/api/common-schemas.ts';
import { fuelLevelSource } from '#shared/tracking/api/fuel-level-schemas.ts';
import { freshnessGrade } from '#shared/tracking/api/schemas.ts';
import {
  answerFuelTaxTreatment,
  fuelPlanStatus,
  fuelProgramShortfallSchema,
  inFuelProgramMember,
  plannedStationSchema,
  stopPriceBasisShape,
} from '#shared/truck-routes/api/schemas.ts';
import { GUIDANCE_PHASE_VALUES, GUIDANCE_PHASES, PHASE_TRANSITIONS } from '../domain/phases.ts';
import { GUIDANCE_POLICY } from '../domain/policy.ts';

const latitude = z.number().check(z.minimum(-90), z.maximum(90));
const longitude = z.number().check(z.minimum(-180), z.maximum(180));

export const startGuidanceBody = z
  .strictObject({
    destination: z.strictObject({
      latitude,
      longitude,
      name: z
        .optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(200)))
        .check(z.meta({ description: 'Label used in drivers’ reasons' })),
    }),
    min_arrival_fuel_percent: minArrivalFuelPercentRequest,
  })
  .check(z.meta({ id: 'StartGuidanceRequest' }));
export type StartGuidanceBody = z.infer<typeof startGuidanceBody>;

export const skipStopBody = z
  .strictObject({
    reason: optionalReason('Why the driver skipped it (kept on the session’s skipped_stops)'),
  })
  .check(z.meta({ id: 'SkipStopRequest' }));

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
  .check(z.meta({ id: 'GuidancePhase', description: phaseDescription }));

const guidanceStopSchema = z
  .object({
    id: publicId('guidanceStop'),
    // The stop's own `state` says recommended or acknowledged, so the station's state sits on the station.
    station: z.object({ ...plannedStationSchema.shape, state: stopPriceBasisShape.state }),
    miles_ahead: z
      .number()
      .check(z.meta({ description: 'Road miles from the vehicle to the exit for the station' })),
    detour_miles: z
      .number()
      .check(z.meta({ description: 'Extra miles driven to stop: off the route and back' })),
    gallons_to_buy: nullableNumber(
      'Null unless the fuel level was reported with the latest breadcrumb (fuel_level_source: reported) or projected from a report at most 15 minutes and 15 road miles back: gallons from an older projection or an assumed level would be a guess',
    ),
    price_usd_per_gallon: z.number(),
    discount_usd_per_gallon: z.number(),
    net_price_usd_per_gallon: z
      .number()
      .check(z.meta({ description: 'price_usd_per_gallon − discount_usd_per_gallon' })),
    state_tax_usd_per_gallon: stopPriceBasisShape.state_tax_usd_per_gallon,
    effective_price_usd_per_gallon: stopPriceBasisShape.effective_price_usd_per_gallon,
    fuel_tax_treatment: answerFuelTaxTreatment,
    price_is_stale: z.boolean(),
    in_fuel_program: inFuelProgramMember,
    reason: z.string().check(z.meta({ description: 'Driver-ready explanation' })),
    state: z.enum(['recommended', 'acknowledged']),
    recommended_at: timestamp,
    acknowledged_at: z.nullable(timestamp),
  })
  .check(z.meta({ id: 'GuidanceStop' }));

export const guidanceSchema = z
  .object({
    id: publicId('guidance'),
    vehicle_id: publicId('vehicle'),
    status: z.enum(['active', 'completed', 'cancelled', 'superseded']),
    phase: guidancePhase,
    destination: z.object({ latitude: z.number(), longitude: z.number(), name: z.nullable(z.string()) }),
    min_arrival_fuel_percent: z.number().check(
      z.meta({
        description:
          "The margin in force: the start request's value, or the fleet's default_min_arrival_fuel_percent when the request omitted it",
      }),
    ),
    stops: z.array(guidanceStopSchema).check(
      z.meta({
        description: `Recommended stops in route order; with phase stop_recommended, stops[0] is the cheapest on-route stop on the price basis in force (effective_price_usd_per_gallon). Within ${GUIDANCE_POLICY.approachRadiusMiles} road miles of stops[0] the phase is approaching_stop.`,
      }),
    ),
    skipped_stops: z.array(
      z.object({
        stop_id: publicId('guidanceStop'),
        station_id: z.string(),
        name: z.string(),
        reason: z.nullable(z.string()),
        skipped_at: timestamp,
      }),
    ),
    plan_reason: z
      .nullable(z.string())
      .check(z.meta({ description: 'The plan’s one-line summary, or why there is none' })),
    plan_status: z.nullable(fuelPlanStatus).check(
      z.meta({
        description:
          'The last plan’s status on the remaining route; null before the first plan and while waiting for a position or a fuel level. With `no_accepted_station_in_range` the stops are the accepted ones within reach before the stretch the program leaves uncovered (phase as for any stops), or none with phase cannot_reach when no accepted stop is within reach',
      }),
    ),
    fuel_program_shortfall: fuelProgramShortfallSchema,
    remaining_miles: z.nullable(z.number()),
    projected_arrival_fuel_percent: nullableNumber(
      'Fuel at the destination if the stops are followed; null without a feasible plan',
    ),
    position: z.nullable(
      z.object({
        latitude: z.number(),
        longitude: z.number(),
        recorded_at: timestamp,
        freshness: freshnessGrade,
      }),
    ),
    fuel: z
      .nullable(
        z.object({
          level_percent: z.number(),
          source: z.enum(['reported', 'estimated']).check(
            z.meta({
              description: 'estimated: projected from the last reported level and the miles driven since',
            }),
          ),
          reported_at: timestamp.check(z.meta({ description: 'When the level it comes from was reported' })),
          freshness: freshnessGrade,
        }),
      )
      .check(
        z.meta({
          description:
            'The tank sensor’s reading the plan works from; null before the first breadcrumb, and when the vehicle never reported fuel_level_percent (fuel_level_source: assumed)',
        }),
      ),
    fuel_level_percent: nullableNumber(
      'The level the plan works from, to 0.1; null before the first breadcrumb',
    ),
    fuel_level_source: z.nullable(fuelLevelSource),
    fuel_level_as_of: z.nullable(
      timestamp.check(
        z.meta({ description: 'The moment the level describes: the latest breadcrumb’s recorded_at' }),
      ),
    ),
    revision: z
      .number()
      .check(z.int(), z.meta({ description: 'Counts guidance.updated announcements of this session' })),
    created_at: timestamp,
    updated_at: timestamp,
    plan_updated_at: z.nullable(timestamp),
  })
  .check(z.meta({ id: 'Guidance' }));
