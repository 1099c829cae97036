import { z } from 'zod';
import { emailAddress, externalRef, ianaTimezone, pageOf, pageQuery, publicId, timestamp } from './common.ts';

export const fleetSchema = z
  .object({
    id: publicId('fleet'),
    name: z.string(),
    external_ref: z.string().nullable(),
    contact_email: z.string().nullable(),
    timezone: z.string(),
    status: z.enum(['active', 'inactive']),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({ id: 'Fleet' });

export const fleetName = z.string().trim().min(1).max(200);

export const createFleetBody = z
  .strictObject({
    name: fleetName,
    external_ref: externalRef.optional(),
    contact_email: emailAddress.optional(),
    timezone: ianaTimezone,
  })
  .meta({ id: 'CreateFleetRequest' });

export const updateFleetBody = z
  .strictObject({
    name: fleetName.optional(),
    external_ref: externalRef.nullable().optional(),
    contact_email: emailAddress.nullable().optional(),
  })
  .meta({ id: 'UpdateFleetRequest', description: 'Fields to change; `null` clears an optional field.' });

export const fleetIdParams = z.object({ id: publicId('fleet') });
export const listFleetsQuery = z.object({ ...pageQuery });
export const fleetPage = pageOf(fleetSchema, 'FleetPage');

export type CreateFleetBody = z.infer<typeof createFleetBody>;
export type UpdateFleetBody = z.infer<typeof updateFleetBody>;
