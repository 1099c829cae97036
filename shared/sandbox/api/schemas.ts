import * as z from 'zod/mini';
import { extendWithoutMeta, publicId, timestamp, vehicleRef } from '#shared/api/common-schemas.ts';
import { guidancePhase } from '#shared/guidance/api/schemas.ts';
import { TRUCK_PROFILES } from '../domain/profiles.ts';
import { SCENARIO_NAMES, SCENARIOS } from '../domain/scenarios.ts';
import { MAX_ADVANCE_MINUTES } from '../domain/simulation.ts';
import { TRUCK_STATES } from '../domain/truck.ts';

const scenarioDescription = ['Scenarios:', ...SCENARIOS.map((s) => `- \`${s.name}\`: ${s.description}`)].join(
  '\n',
);

export const scenarioName = z
  .enum(SCENARIO_NAMES)
  .check(z.meta({ id: 'SandboxScenario', description: scenarioDescription }));

export const sandboxVehicleParams = z.object({ id: vehicleRef });

export const scenarioBody = z
  .strictObject({ scenario: scenarioName })
  .check(z.meta({ id: 'SandboxScenarioRequest' }));

export const advanceBody = z
  .strictObject({
    minutes: z
      .int()
      .check(
        z.minimum(1),
        z.maximum(MAX_ADVANCE_MINUTES),
        z.meta({ description: `Simulated minutes to run now, 1–${MAX_ADVANCE_MINUTES}` }),
      ),
  })
  .check(z.meta({ id: 'SandboxAdvanceRequest' }));

const truckState = z.enum(TRUCK_STATES);
const place = { latitude: z.number(), longitude: z.number() };

export const simulationSchema = z
  .object({
    object: z.literal('sandbox_simulation'),
    fleet_id: publicId('fleet'),
    status: z.enum(['running', 'paused']).check(
      z.meta({
        description: 'paused: nobody called a sandbox tool for 24 hours; the next call resumes it',
      }),
    ),
    clock: z.object({
      simulated_now: timestamp.check(
        z.meta({ description: 'The simulation clock: ahead of the wall clock after an advance' }),
      ),
      tick_interval_seconds: z.int(),
      last_tick_at: z.nullable(timestamp),
      next_tick_at: z.nullable(timestamp),
    }),
    vehicles: z.array(
      z.object({
        vehicle_id: publicId('vehicle'),
        external_ref: z.string(),
        name: z.string(),
        profile: z.object({
          id: z.enum(TRUCK_PROFILES.map((p) => p.id) as [string, ...string[]]),
          title: z.string(),
          tank_size_gallons: z.number(),
          mpg: z.number(),
        }),
        scenario: scenarioName,
        pending_scenario: z
          .nullable(scenarioName)
          .check(z.meta({ description: 'Applies on the next simulated minute' })),
        state: truckState,
        position: z.nullable(
          z.object({
            ...place,
            heading: z.int(),
            speed_mph: z.number(),
            recorded_at: timestamp,
          }),
        ),
        fuel: z.nullable(z.object({ percent: z.number(), gallons: z.number() })),
        destination: z.nullable(z.object({ name: z.string(), ...place })),
        route_polyline: z
          .nullable(z.string())
          .check(z.meta({ description: 'Encoded polyline (precision 5) of the current leg' })),
        trip_id: z.nullable(publicId('trip')),
        guidance_id: z.nullable(publicId('guidance')),
        guidance_phase: z.nullable(guidancePhase),
        next_stop: z.nullable(
          z.object({ station_id: z.string(), name: z.string(), ...place, gallons: z.nullable(z.number()) }),
        ),
      }),
    ),
    recent_events: z
      .array(
        z.object({
          id: publicId('event'),
          type: z.string(),
          occurred_at: timestamp,
          vehicle_id: z.nullable(z.string()),
        }),
      )
      .check(z.meta({ description: 'The fleet’s newest events, newest first, at most 20' })),
  })
  .check(z.meta({ id: 'SandboxSimulation' }));

export const advanceResultSchema = extendWithoutMeta(simulationSchema, {
  requested_minutes: z.int().check(z.meta({ description: 'The minutes asked for' })),
  advanced_minutes: z.int().check(
    z.meta({
      description:
        'The minutes actually run (saved) before the request’s time ran short; when fewer than requested_minutes, call again for the rest',
    }),
  ),
}).check(z.meta({ id: 'SandboxAdvanceResult' }));

export const scenarioActionSchema = z
  .object({
    object: z.literal('sandbox_action'),
    action: z.literal('scenario'),
    vehicle_id: publicId('vehicle'),
    scenario: scenarioName,
    status: z.literal('scheduled'),
    applies_at: timestamp.check(
      z.meta({ description: 'When the next simulated minute runs (the next tick)' }),
    ),
  })
  .check(z.meta({ id: 'SandboxScenarioAction' }));

export const resetActionSchema = z
  .object({
    object: z.literal('sandbox_action'),
    action: z.literal('reset'),
    fleet_id: publicId('fleet'),
    status: z.literal('completed'),
    completed_at: timestamp,
    vehicle_ids: z.array(publicId('vehicle')),
    deleted_items: z.int().check(z.meta({ description: 'History, guidance, trips and fuelings removed' })),
  })
  .check(z.meta({ id: 'SandboxResetAction' }));
