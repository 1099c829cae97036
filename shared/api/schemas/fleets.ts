import * as z from 'zod';
import { FLEET_MIN_ARRIVAL_FUEL_PERCENT_RANGE } from '../../domain/fleet.ts';
import {
  emailAddress,
  externalRef,
  ianaTimezone,
  pageOf,
  pageQuery,
  percentBetween,
  publicId,
  timestamp,
} from './common.ts';

export const fleetSchema = z
  .object({
    id: publicId('fleet'),
    name: z.string(),
    external_ref: z.string().nullable(),
    contact_email: z.string().nullable(),
    timezone: z.string(),
    status: z.enum(['active', 'inactive']),
    default_min_arrival_fuel_percent: z.number().meta({
      description:
        'Used when a guidance start or a route omits min_arrival_fuel_percent; 10 unless the fleet set another',
    }),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({ id: 'Fleet' });

/** The fleet's setting as it may be written (0–50, see FLEET_MIN_ARRIVAL_FUEL_PERCENT_RANGE). */
export const defaultMinArrivalFuelPercent = percentBetween(
  FLEET_MIN_ARRIVAL_FUEL_PERCENT_RANGE.min,
  FLEET_MIN_ARRIVAL_FUEL_PERCENT_RANGE.max,
).meta({
  description:
    'Percent of the tank to arrive with when a guidance start or a route omits min_arrival_fuel_percent (0–50; 10 when never set)',
});

export const fleetName = z.string().trim().min(1).max(200);

export const createFleetBody = z
  .strictObject({
    name: fleetName,
    external_ref: externalRef.optional(),
    contact_email: emailAddress.optional(),
    timezone: ianaTimezone,
    default_min_arrival_fuel_percent: defaultMinArrivalFuelPercent.optional(),
  })
  .meta({ id: 'CreateFleetRequest' });

export const updateFleetBody = z
  .strictObject({
    name: fleetName.optional(),
    external_ref: externalRef.nullable().optional(),
    contact_email: emailAddress.nullable().optional(),
    default_min_arrival_fuel_percent: defaultMinArrivalFuelPercent.optional(),
  })
  .meta({ id: 'UpdateFleetRequest', description: 'Fields to change; `null` clears an optional field.' });

/** PATCH /v1/fleet: the acting fleet's settings (what a company key may change on its own fleet). */
export const updateFleetSettingsBody = z
  .strictObject({
    default_min_arrival_fuel_percent: defaultMinArrivalFuelPercent,
  })
  .meta({ id: 'UpdateFleetSettingsRequest' });

export const fleetIdParams = z.object({ id: publicId('fleet') });
export const listFleetsQuery = z.object({ ...pageQuery });
export const fleetPage = pageOf(fleetSchema, 'FleetPage');

export type CreateFleetBody = z.infer<typeof createFleetBody>;
export type UpdateFleetBody = z.infer<typeof updateFleetBody>;
export type UpdateFleetSettingsBody = z.infer<typeof updateFleetSettingsBody>;
