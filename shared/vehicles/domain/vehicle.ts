import type { TruckProfileSettings } from '#shared/fleets/domain/truck-profile.ts';
import type { FuelTaxTreatment } from '#shared/fuel-tax/domain/treatment.ts';

export type VehicleStatus = 'active' | 'inactive';

export interface Vehicle {
  id: string;
  fleetId: string;
  externalRef: string;
  /** Further refs linked by VIN merges; each resolves to this vehicle like the primary one. */
  linkedExternalRefs: string[];
  name: string | null;
  vin: string | null;
  tankSizeGallons: number | null;
  estimatedMpg: number | null;
  licensePlate: string | null;
  /** The truck's own fuel tax treatment (one that is not IFTA-qualified); null: the fleet's. */
  fuelTaxTreatment: FuelTaxTreatment | null;
  /** The truck's dimensions, weight and cargo as set on it; null members: the fleet's, then the standard truck's. */
  truckProfile: TruckProfileSettings;
  status: VehicleStatus;
  createdAt: string;
  updatedAt: string;
  /** Optimistic-concurrency counter; every write checks and bumps it. */
  version: number;
}

export interface NewVehicle {
  externalRef: string;
  name?: string | undefined;
  vin?: string | undefined;
  tankSizeGallons?: number | undefined;
  estimatedMpg?: number | undefined;
  licensePlate?: string | undefined;
  fuelTaxTreatment?: FuelTaxTreatment | undefined;
}

export type VehicleChanges = Partial<
  Pick<
    Vehicle,
    | 'externalRef'
    | 'name'
    | 'vin'
    | 'tankSizeGallons'
    | 'estimatedMpg'
    | 'licensePlate'
    | 'fuelTaxTreatment'
    | 'truckProfile'
    | 'status'
  >
>;

/** Every external_ref that identifies the vehicle: the primary and the linked ones. */
export function externalRefsOf(vehicle: Pick<Vehicle, 'externalRef' | 'linkedExternalRefs'>): string[] {
  return [vehicle.externalRef, ...vehicle.linkedExternalRefs];
}

/** Applies changes, keeping the linked refs free of the (possibly new) primary ref. */
export function applyVehicleChanges(vehicle: Vehicle, changes: VehicleChanges, updatedAt: string): Vehicle {
  const next: Vehicle = { ...vehicle, updatedAt, version: vehicle.version + 1 };
  for (const [field, value] of Object.entries(changes) as [keyof VehicleChanges, unknown][]) {
    if (value !== undefined) (next as unknown as Record<string, unknown>)[field] = value;
  }
  if (next.externalRef !== vehicle.externalRef) {
    next.linkedExternalRefs = vehicle.linkedExternalRefs.filter((ref) => ref !== next.externalRef);
  }
  return next;
}
