import * as z from 'zod';
import { externalRef, pageOf, pageQuery, publicId, timestamp, vehicleRef } from './common.ts';
import { physical } from './ranges.ts';

/**
 * 17 characters without I, O and Q (ISO 3779 / 49 CFR 565), stored upper-case. The check digit is
 * not enforced: imported and non-North-American trucks legitimately fail it.
 */
export const vin = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[A-HJ-NPR-Z0-9]{17}$/, 'must be 17 characters, letters and digits except I, O and Q')
  .meta({ example: '1XKYDP9X4NJ123456' });

const tankSizeGallons = physical('tank_size_gallons').meta({
  description: 'Usable tank capacity, all tanks.',
});
const estimatedMpg = physical('estimated_mpg');
const vehicleName = z.string().trim().min(1).max(200);
const licensePlate = z.string().trim().min(1).max(32);

export const vehicleSchema = z
  .object({
    id: publicId('vehicle'),
    external_ref: z.string(),
    linked_external_refs: z.array(z.string()).meta({
      description: 'Further external_refs linked to this vehicle by VIN merges; each resolves via ext:.',
    }),
    name: z.string().nullable(),
    vin: z.string().nullable(),
    tank_size_gallons: z.number().nullable(),
    estimated_mpg: z.number().nullable(),
    license_plate: z.string().nullable(),
    status: z.enum(['active', 'inactive']),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({ id: 'Vehicle' });

export const createdVehicleSchema = vehicleSchema
  .extend({
    merged_with_existing: z
      .boolean()
      .optional()
      .meta({ description: 'Present and true when the VIN matched an existing vehicle (status 200).' }),
  })
  .meta({ id: 'CreatedVehicle' });

export const createVehicleBody = z
  .strictObject({
    external_ref: externalRef,
    name: vehicleName.optional(),
    vin: vin.optional(),
    tank_size_gallons: tankSizeGallons.optional(),
    estimated_mpg: estimatedMpg.optional(),
    license_plate: licensePlate.optional(),
  })
  .meta({ id: 'CreateVehicleRequest' });

export const updateVehicleBody = z
  .strictObject({
    external_ref: externalRef.optional(),
    name: vehicleName.nullable().optional(),
    vin: vin.nullable().optional(),
    tank_size_gallons: tankSizeGallons.nullable().optional(),
    estimated_mpg: estimatedMpg.nullable().optional(),
    license_plate: licensePlate.nullable().optional(),
  })
  .meta({ id: 'UpdateVehicleRequest', description: 'Fields to change; `null` clears an optional field.' });

export const vehicleRefParams = z.object({ id: vehicleRef });
export const listVehiclesQuery = z.object({
  status: z.enum(['active', 'inactive']).optional().meta({ description: 'Omitted returns both.' }),
  ...pageQuery,
});
export const vehiclePage = pageOf(vehicleSchema, 'VehiclePage');

export type CreateVehicleBody = z.infer<typeof createVehicleBody>;
export type UpdateVehicleBody = z.infer<typeof updateVehicleBody>;
