import * as z from 'zod/mini';
import {
  extendWithoutMeta,
  externalRef,
  pageOf,
  pageQuery,
  publicId,
  timestamp,
  vehicleRef,
} from '#shared/api/common-schemas.ts';
import { physical } from '#shared/api/ranges.ts';
import { truckProfileRequest, truckProfileSettingsSchema } from '#shared/fleets/api/truck-profile-schemas.ts';
import { vehicleFuelTaxTreatment } from '#shared/fuel-tax/api/schemas.ts';

/**
 * 17 characters without I, O and Q (ISO 3779 / 49 CFR 565), stored upper-case. The check digit is
 * not enforced: imported and non-North-American trucks legitimately fail it.
 */
export const vin = z
  .string()
  .check(
    z.trim(),
    z.toUpperCase(),
    z.regex(/^[A-HJ-NPR-Z0-9]{17}$/, 'must be 17 characters, letters and digits except I, O and Q'),
    z.meta({ example: '1XKYDP9X4NJ123456' }),
  );

const tankSizeGallons = physical('tank_size_gallons').check(
  z.meta({
    description: 'Usable tank capacity, all tanks.',
  }),
);
const estimatedMpg = physical('estimated_mpg');
const vehicleName = z.string().check(z.trim(), z.minLength(1), z.maxLength(200));
const licensePlate = z.string().check(z.trim(), z.minLength(1), z.maxLength(32));

export const vehicleSchema = z
  .object({
    id: publicId('vehicle'),
    external_ref: z.string(),
    linked_external_refs: z.array(z.string()).check(
      z.meta({
        description: 'Further external_refs linked to this vehicle by VIN merges; each resolves via ext:.',
      }),
    ),
    name: z.nullable(z.string()),
    vin: z.nullable(z.string()),
    tank_size_gallons: z.nullable(z.number()),
    estimated_mpg: z.nullable(z.number()),
    license_plate: z.nullable(z.string()),
    fuel_tax_treatment: vehicleFuelTaxTreatment,
    truck_profile: truckProfileSettingsSchema,
    status: z.enum(['active', 'inactive']),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .check(z.meta({ id: 'Vehicle' }));

export const createdVehicleSchema = extendWithoutMeta(vehicleSchema, {
  merged_with_existing: z
    .optional(z.boolean())
    .check(
      z.meta({ description: 'Present and true when the VIN matched an existing vehicle (status 200).' }),
    ),
}).check(z.meta({ id: 'CreatedVehicle' }));

export const createVehicleBody = z
  .strictObject({
    external_ref: externalRef,
    name: z.optional(vehicleName),
    vin: z.optional(vin),
    tank_size_gallons: z.optional(tankSizeGallons),
    estimated_mpg: z.optional(estimatedMpg),
    license_plate: z.optional(licensePlate),
    fuel_tax_treatment: z.optional(vehicleFuelTaxTreatment),
    truck_profile: z.optional(truckProfileRequest),
  })
  .check(z.meta({ id: 'CreateVehicleRequest' }));

export const updateVehicleBody = z
  .strictObject({
    external_ref: z.optional(externalRef),
    name: z.optional(z.nullable(vehicleName)),
    vin: z.optional(z.nullable(vin)),
    tank_size_gallons: z.optional(z.nullable(tankSizeGallons)),
    estimated_mpg: z.optional(z.nullable(estimatedMpg)),
    license_plate: z.optional(z.nullable(licensePlate)),
    fuel_tax_treatment: z.optional(vehicleFuelTaxTreatment),
    truck_profile: z.optional(z.nullable(truckProfileRequest)).check(
      z.meta({
        description:
          'Merged member by member into the vehicle’s: a member sent replaces, null clears it, one left out stays; `truck_profile: null` clears them all.',
      }),
    ),
  })
  .check(
    z.meta({ id: 'UpdateVehicleRequest', description: 'Fields to change; `null` clears an optional field.' }),
  );

export const vehicleRefParams = z.object({ id: vehicleRef });
export const listVehiclesQuery = z.object({
  status: z.optional(z.enum(['active', 'inactive'])).check(z.meta({ description: 'Omitted returns both.' })),
  ...pageQuery,
});
export const vehiclePage = pageOf(vehicleSchema, 'VehiclePage');

export type CreateVehicleBody = z.infer<typeof createVehicleBody>;
export type UpdateVehicleBody = z.infer<typeof updateVehicleBody>;
