import * as z from 'zod/mini';
import {
  emailAddress,
  externalRef,
  ianaTimezone,
  pageOf,
  pageQuery,
  percentBetween,
  publicId,
  timestamp,
} from '#shared/api/common-schemas.ts';
import { fuelProgramRequest, fuelProgramSchema } from '#shared/fuel-programs/api/schemas.ts';
import { fleetFuelTaxTreatment } from '#shared/fuel-tax/api/schemas.ts';
import { FLEET_MIN_ARRIVAL_FUEL_PERCENT_RANGE } from '../domain/fleet.ts';
import { truckProfileRequest, truckProfileSettingsSchema } from './truck-profile-schemas.ts';

export const fleetSchema = z
  .object({
    id: publicId('fleet'),
    name: z.string(),
    external_ref: z.nullable(z.string()),
    contact_email: z.nullable(z.string()),
    timezone: z.string(),
    status: z.enum(['active', 'inactive']),
    default_min_arrival_fuel_percent: z.number().check(
      z.meta({
        description:
          'Used when a guidance start or a route omits min_arrival_fuel_percent; 10 unless the fleet set another',
      }),
    ),
    assumed_departure_fuel_percent: z.number().check(
      z.meta({
        description:
          'The fuel level (percent of the tank) a trip, route or guidance session assumes a truck departs with when it never reported fuel_level_percent; 100 (a full tank) unless the fleet set another',
      }),
    ),
    fuel_tax_treatment: fleetFuelTaxTreatment,
    fuel_program: fuelProgramSchema,
    truck_profile: truckProfileSettingsSchema,
    created_at: timestamp,
    updated_at: timestamp,
  })
  .check(z.meta({ id: 'Fleet' }));

/** The fleet's setting as it may be written (0–50, see FLEET_MIN_ARRIVAL_FUEL_PERCENT_RANGE). */
export const defaultMinArrivalFuelPercent = percentBetween(
  FLEET_MIN_ARRIVAL_FUEL_PERCENT_RANGE.min,
  FLEET_MIN_ARRIVAL_FUEL_PERCENT_RANGE.max,
).check(
  z.meta({
    description:
      'Percent of the tank to arrive with when a guidance start or a route omits min_arrival_fuel_percent (0–50; 10 when never set)',
  }),
);

/** The fleet's assumed departure level as it may be written (0–100). */
export const assumedDepartureFuelPercent = percentBetween(0, 100).check(
  z.meta({
    description:
      'Percent of the tank a truck that never reported fuel_level_percent is assumed to depart with (0–100; 100, a full tank, when never set). Answers built on it say fuel_level_source: assumed',
  }),
);

/** A fleet's fuel card program as PATCH takes it: the whole program, replacing the fleet's. */
const fuelProgramChange = z.optional(fuelProgramRequest).check(
  z.meta({
    description:
      'The fleet’s fuel card program, replaced whole. On PATCH /v1/fleet a company key needs `keys:manage` (the owner’s scope) to send it.',
  }),
);

/** The fleet's default truck as PATCH takes it: merged member by member. */
const truckProfileChange = z.optional(z.nullable(truckProfileRequest)).check(
  z.meta({
    description:
      'The fleet’s default truck, for every vehicle that does not set a member itself. Merged member by member: a member sent replaces, null clears it (the standard truck’s applies), one left out stays; `truck_profile: null` clears them all.',
  }),
);

export const fleetName = z.string().check(z.trim(), z.minLength(1), z.maxLength(200));

export const createFleetBody = z
  .strictObject({
    name: fleetName,
    external_ref: z.optional(externalRef),
    contact_email: z.optional(emailAddress),
    timezone: ianaTimezone,
    default_min_arrival_fuel_percent: z.optional(defaultMinArrivalFuelPercent),
    assumed_departure_fuel_percent: z.optional(assumedDepartureFuelPercent),
    fuel_tax_treatment: z.optional(fleetFuelTaxTreatment),
    truck_profile: z.optional(truckProfileRequest),
  })
  .check(z.meta({ id: 'CreateFleetRequest' }));

/** The settings both PATCH bodies may change: the partner's on a fleet, a company key's on its own. */
const fleetSettingChanges = {
  default_min_arrival_fuel_percent: z.optional(defaultMinArrivalFuelPercent),
  assumed_departure_fuel_percent: z.optional(assumedDepartureFuelPercent),
  fuel_tax_treatment: z.optional(fleetFuelTaxTreatment),
  fuel_program: fuelProgramChange,
  truck_profile: truckProfileChange,
};

export const updateFleetBody = z
  .strictObject({
    name: z.optional(fleetName),
    external_ref: z.optional(z.nullable(externalRef)),
    contact_email: z.optional(z.nullable(emailAddress)),
    ...fleetSettingChanges,
  })
  .check(
    z.meta({ id: 'UpdateFleetRequest', description: 'Fields to change; `null` clears an optional field.' }),
  );

const FLEET_SETTINGS = Object.keys(fleetSettingChanges) as (keyof typeof fleetSettingChanges)[];

/**
 * PATCH /v1/fleet: the acting fleet's settings (what a company key may change on its own fleet).
 * Each is optional, but a body must change at least one: an empty PATCH is a mistake, not a no-op.
 */
export const updateFleetSettingsBody = z.strictObject(fleetSettingChanges).check(
  z.superRefine((body, ctx) => {
    if (FLEET_SETTINGS.some((setting) => body[setting] !== undefined)) return;
    for (const setting of FLEET_SETTINGS) {
      ctx.addIssue({
        code: 'custom',
        path: [setting],
        message: `is required: send at least one of ${FLEET_SETTINGS.join(', ')}`,
      });
    }
  }),
  z.meta({ id: 'UpdateFleetSettingsRequest' }),
);

export const fleetIdParams = z.object({ id: publicId('fleet') });
export const listFleetsQuery = z.object({ ...pageQuery });
export const fleetPage = pageOf(fleetSchema, 'FleetPage');

export type CreateFleetBody = z.infer<typeof createFleetBody>;
export type UpdateFleetBody = z.infer<typeof updateFleetBody>;
export type UpdateFleetSettingsBody = z.infer<typeof updateFleetSettingsBody>;
