import { truckProfileSettingsResource } from '#shared/fleets/api/truck-profile-serializers.ts';
import type { Vehicle } from '../domain/vehicle.ts';

/**
 * Member order here is the order on the wire; create responses and GETs both come through this
 * function, which is what makes them agree byte for byte.
 */
export function vehicleResource(vehicle: Vehicle) {
  return {
    id: vehicle.id,
    external_ref: vehicle.externalRef,
    linked_external_refs: vehicle.linkedExternalRefs,
    name: vehicle.name,
    vin: vehicle.vin,
    tank_size_gallons: vehicle.tankSizeGallons,
    estimated_mpg: vehicle.estimatedMpg,
    license_plate: vehicle.licensePlate,
    fuel_tax_treatment: vehicle.fuelTaxTreatment,
    truck_profile: truckProfileSettingsResource(vehicle.truckProfile),
    status: vehicle.status,
    created_at: vehicle.createdAt,
    updated_at: vehicle.updatedAt,
  };
}

/** POST /v1/vehicles: a VIN that matched a vehicle of the fleet answers that vehicle, marked merged. */
export function createdVehicleResource(vehicle: Vehicle, mergedWithExisting: boolean) {
  return mergedWithExisting
    ? { ...vehicleResource(vehicle), merged_with_existing: true }
    : vehicleResource(vehicle);
}
