import { parseVehicleRef } from '#shared/api/common-schemas.ts';
import {
  applyTruckProfilePatch,
  sameTruckProfileSettings,
  type TruckProfilePatch,
  UNSET_TRUCK_PROFILE,
} from '#shared/fleets/domain/truck-profile.ts';
import { truckProfilePatchFromRequest } from '#shared/fleets/usecases/truck-profiles.ts';
import { newId } from '#shared/kernel/ids.ts';
import { type Clock, formatTimestamp } from '#shared/kernel/time.ts';
import { ApiError, type ErrorCode } from '#shared/platform/errors.ts';
import type { CreateVehicleBody, UpdateVehicleBody } from '../api/schemas.ts';
import {
  applyVehicleChanges,
  externalRefsOf,
  type Vehicle,
  type VehicleChanges,
  type VehicleStatus,
} from '../domain/vehicle.ts';
import { type GuardConflict, GuardConflictError, type VehicleStore } from '../store/vehicles.ts';

export interface VehicleDeps {
  vehicles: VehicleStore;
  clock: Clock;
}

/** Read-modify-write retries on a concurrent write before giving up with 409. */
const MAX_ATTEMPTS = 5;

const isLostRace = (error: unknown) => error instanceof ApiError && error.code === 'resource_conflict';

/** Full jitter, so racing writers spread out instead of colliding again in lockstep. */
const backoff = (attempt: number) =>
  new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * 2 ** attempt));

/**
 * A vehicle of the acting fleet by `veh_` id or `ext:<external_ref>`. Not found (including ids of
 * other fleets) is `resource_not_found` on paths; batch rows ask for `unknown_vehicle` instead.
 */
export async function findVehicle(
  deps: { vehicles: Pick<VehicleStore, 'get' | 'idForExternalRef'> },
  fleetId: string,
  ref: string,
  missing: ErrorCode = 'resource_not_found',
): Promise<Vehicle> {
  const parsed = parseVehicleRef(ref);
  const vehicleId =
    parsed.kind === 'id' ? parsed.id : await deps.vehicles.idForExternalRef(fleetId, parsed.externalRef);
  const vehicle = vehicleId ? await deps.vehicles.get(fleetId, vehicleId) : null;
  if (!vehicle) throw new ApiError(missing, `Vehicle ${ref} was not found in this fleet.`);
  return vehicle;
}

/** The fleet's vehicles, a page at a time, optionally of one status. */
export function listVehicles(
  deps: Pick<VehicleDeps, 'vehicles'>,
  fleetId: string,
  status: VehicleStatus | undefined,
  limit: number,
  cursor: string | undefined,
) {
  return deps.vehicles.list(fleetId, status, limit, cursor);
}

/** For operations a deactivated vehicle must not take part in (guidance, routes, trips, locations). */
export function assertActive(vehicle: Vehicle): void {
  if (vehicle.status === 'inactive') {
    throw new ApiError('vehicle_inactive', `Vehicle ${vehicle.id} is deactivated.`, {
      hint: `reactivate first: POST /v1/vehicles/${vehicle.id}/reactivate`,
    });
  }
}

export interface CreateVehicleResult {
  vehicle: Vehicle;
  mergedWithExisting: boolean;
}

/**
 * Creates the vehicle, or, when the VIN already belongs to a vehicle of this fleet, links the new
 * external_ref to that vehicle (spec: 200 with `merged_with_existing`). Concurrent creates with the
 * same external_ref or VIN never produce two vehicles: the guard items decide, and the loser gets
 * 409 or the merged vehicle.
 */
export async function createVehicle(
  deps: VehicleDeps,
  fleetId: string,
  body: CreateVehicleBody,
): Promise<CreateVehicleResult> {
  if (body.vin) {
    const existingId = await deps.vehicles.idForVin(fleetId, body.vin);
    if (existingId) return linkToExisting(deps, fleetId, existingId, body.external_ref);
  }
  const nowMs = deps.clock.now();
  const at = formatTimestamp(nowMs);
  const vehicle: Vehicle = {
    id: newId('vehicle', nowMs),
    fleetId,
    externalRef: body.external_ref,
    linkedExternalRefs: [],
    name: body.name ?? null,
    vin: body.vin ?? null,
    tankSizeGallons: body.tank_size_gallons ?? null,
    estimatedMpg: body.estimated_mpg ?? null,
    licensePlate: body.license_plate ?? null,
    fuelTaxTreatment: body.fuel_tax_treatment ?? null,
    truckProfile: applyTruckProfilePatch(
      UNSET_TRUCK_PROFILE,
      body.truck_profile ? truckProfilePatchFromRequest(body.truck_profile) : {},
    ),
    status: 'active',
    createdAt: at,
    updatedAt: at,
    version: 1,
  };
  try {
    await deps.vehicles.create(vehicle);
    return { vehicle, mergedWithExisting: false };
  } catch (error) {
    if (!(error instanceof GuardConflictError)) throw error;
    if (error.conflict.field === 'vin' && body.vin) {
      // A concurrent request created the vehicle with this VIN first: merge into it.
      const winnerId = await deps.vehicles.idForVin(fleetId, body.vin);
      if (winnerId) return linkToExisting(deps, fleetId, winnerId, body.external_ref);
    }
    throw await conflictError(deps, fleetId, error.conflict);
  }
}

async function linkToExisting(
  deps: VehicleDeps,
  fleetId: string,
  vehicleId: string,
  externalRef: string,
): Promise<CreateVehicleResult> {
  const vehicle = await writeWithRetry(
    deps,
    fleetId,
    async () => {
      const current = await deps.vehicles.get(fleetId, vehicleId);
      if (!current)
        throw new ApiError('resource_conflict', 'The vehicle with this VIN changed concurrently; retry.');
      return current;
    },
    (current) =>
      externalRefsOf(current).includes(externalRef)
        ? null
        : {
            ...current,
            linkedExternalRefs: [...current.linkedExternalRefs, externalRef],
            updatedAt: formatTimestamp(deps.clock.now()),
            version: current.version + 1,
          },
  );
  return { vehicle, mergedWithExisting: true };
}

export async function updateVehicle(
  deps: VehicleDeps,
  fleetId: string,
  ref: string,
  body: UpdateVehicleBody,
): Promise<Vehicle> {
  const changes: VehicleChanges = {
    externalRef: body.external_ref,
    name: body.name,
    vin: body.vin,
    tankSizeGallons: body.tank_size_gallons,
    estimatedMpg: body.estimated_mpg,
    licensePlate: body.license_plate,
    fuelTaxTreatment: body.fuel_tax_treatment,
  };
  const truckProfile =
    body.truck_profile === undefined ? null : truckProfilePatchFromRequest(body.truck_profile);
  return changeVehicle(deps, fleetId, ref, changes, truckProfile);
}

export interface DeactivationDeps extends VehicleDeps {
  /** Ends the vehicle's guidance session, if it has one (the guidance feature's own use case). */
  endGuidance: (fleetId: string, vehicleId: string) => Promise<void>;
  /** Cancels the vehicle's active trip, if it has one (the trips feature's own use case). */
  cancelActiveTrip: (fleetId: string, vehicleId: string) => Promise<void>;
}

/**
 * POST /v1/vehicles/{id}/deactivate: a deactivated vehicle reports nothing more (ingest refuses
 * it), so its guidance session ends with it rather than going stale, and its active trip is
 * cancelled (reason vehicle_deactivated).
 */
export async function deactivateVehicle(
  deps: DeactivationDeps,
  fleetId: string,
  ref: string,
): Promise<Vehicle> {
  const vehicle = await setVehicleStatus(deps, fleetId, ref, 'inactive');
  // The session first, so it ends as vehicle_deactivated rather than as its trip's cancellation.
  await deps.endGuidance(fleetId, vehicle.id);
  await deps.cancelActiveTrip(fleetId, vehicle.id);
  return vehicle;
}

/** Deactivate / reactivate; setting the status it already has is a no-op answered with the vehicle. */
export function setVehicleStatus(deps: VehicleDeps, fleetId: string, ref: string, status: VehicleStatus) {
  return changeVehicle(deps, fleetId, ref, { status });
}

/**
 * Applies the changes to the vehicle as read, retrying on a lost race; the truck profile patch is
 * merged into the profile read each time, so concurrent changes to different members both hold.
 */
async function changeVehicle(
  deps: VehicleDeps,
  fleetId: string,
  ref: string,
  changes: VehicleChanges,
  truckProfile: TruckProfilePatch | null = null,
) {
  return writeWithRetry(
    deps,
    fleetId,
    () => findVehicle(deps, fleetId, ref),
    (vehicle) => {
      const merged = truckProfile && applyTruckProfilePatch(vehicle.truckProfile, truckProfile);
      const all: VehicleChanges =
        merged && !sameTruckProfileSettings(merged, vehicle.truckProfile)
          ? { ...changes, truckProfile: merged }
          : changes;
      const unchanged = (Object.keys(all) as (keyof VehicleChanges)[]).every(
        (field) => all[field] === undefined || all[field] === vehicle[field],
      );
      return unchanged ? null : applyVehicleChanges(vehicle, all, formatTimestamp(deps.clock.now()));
    },
  );
}

/**
 * Read-modify-write with the version check of `replace`: a lost race reads again and retries
 * (with jitter); a taken external_ref or VIN is 409. `change` returns null when nothing changes.
 */
async function writeWithRetry(
  deps: VehicleDeps,
  fleetId: string,
  read: () => Promise<Vehicle>,
  change: (vehicle: Vehicle) => Vehicle | null,
): Promise<Vehicle> {
  for (let attempt = 1; ; attempt++) {
    const vehicle = await read();
    const next = change(vehicle);
    if (!next) return vehicle;
    try {
      await deps.vehicles.replace(vehicle, next);
      return next;
    } catch (error) {
      if (error instanceof GuardConflictError) throw await conflictError(deps, fleetId, error.conflict);
      if (!isLostRace(error) || attempt >= MAX_ATTEMPTS) throw error;
      await backoff(attempt);
    }
  }
}

/**
 * A taken external_ref or VIN names the vehicle that holds it: it is a vehicle of the same fleet
 * (the guards are per fleet), so the caller may see it, and it is usually the one they meant.
 * Read after the failed write, so a holder gone meanwhile is not named.
 */
async function conflictError(deps: VehicleDeps, fleetId: string, conflict: GuardConflict): Promise<ApiError> {
  const holderId =
    conflict.field === 'external_ref'
      ? await deps.vehicles.idForExternalRef(fleetId, conflict.value)
      : await deps.vehicles.idForVin(fleetId, conflict.value);
  if (!holderId) {
    return new ApiError(
      'resource_conflict',
      `${conflict.field} ${conflict.value} already belongs to another vehicle in this fleet.`,
      { hint: `use a different ${conflict.field}, or change the vehicle that holds it` },
    );
  }
  return new ApiError(
    'resource_conflict',
    `${conflict.field} ${conflict.value} already belongs to vehicle ${holderId} in this fleet.`,
    { hint: `use a different ${conflict.field}, or work with that vehicle: GET /v1/vehicles/${holderId}` },
  );
}
