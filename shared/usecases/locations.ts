import { type Breadcrumb, breadcrumbSchema, MAX_CLOCK_SKEW_MS } from '../api/schemas/locations.ts';
import type { PositionFix } from '../domain/telematics/positions.ts';
import type { Vehicle } from '../domain/vehicle.ts';
import type { ErrorCode } from '../platform/errors.ts';
import type { VehiclePositionStore } from '../store/vehicle-positions.ts';
import type { VehicleStore } from '../store/vehicles.ts';

export const KMH_PER_MPH = 1.609344;

export interface IngestDeps {
  vehicles: Pick<VehicleStore, 'get' | 'idForExternalRef'>;
  positions: Pick<VehiclePositionStore, 'recordLatest' | 'appendHistory'>;
  now: () => number;
}

export type ItemResult =
  | { index: number; status: 'accepted' }
  | { index: number; status: 'rejected'; code: ErrorCode; hint: string };

/**
 * POST /v1/locations: every item is judged on its own (spec section 4: a bad row is rejected with
 * a code and a hint, the rest are accepted). Accepted breadcrumbs go to each vehicle's hourly
 * history, and the newest one per vehicle becomes its latest position if it is newer than the
 * stored one. Returns the per-item results and the vehicles touched.
 */
export async function ingestLocations(deps: IngestDeps, fleetId: string, items: readonly unknown[]) {
  const nowMs = deps.now();
  const vehicles = new Map<string, Promise<Vehicle | null>>();
  const lookup = (crumb: Breadcrumb) => {
    const key = crumb.vehicle_id ? `id:${crumb.vehicle_id}` : `ref:${crumb.external_ref}`;
    let found = vehicles.get(key);
    if (!found) {
      found = (async () => {
        const id =
          crumb.vehicle_id ?? (await deps.vehicles.idForExternalRef(fleetId, crumb.external_ref as string));
        return id ? deps.vehicles.get(fleetId, id) : null;
      })();
      vehicles.set(key, found);
    }
    return found;
  };

  const results: ItemResult[] = [];
  const fixesByVehicle = new Map<string, PositionFix[]>();
  for (const [index, raw] of items.entries()) {
    const parsed = breadcrumbSchema.safeParse(raw);
    if (!parsed.success) {
      const fields = parsed.error.issues.map(
        (issue) => `${issue.path.join('.') || 'item'}: ${issue.message}`,
      );
      results.push({
        index,
        status: 'rejected',
        code: 'validation_failed',
        hint: `fix ${fields.join('; ')}`,
      });
      continue;
    }
    const crumb = parsed.data;
    const recordedAtMs = Date.parse(crumb.recorded_at);
    if (recordedAtMs > nowMs + MAX_CLOCK_SKEW_MS) {
      results.push({
        index,
        status: 'rejected',
        code: 'validation_failed',
        hint: 'fix recorded_at: it is more than 5 minutes in the future; check the device clock (UTC)',
      });
      continue;
    }
    const vehicle = await lookup(crumb);
    if (!vehicle) {
      results.push({
        index,
        status: 'rejected',
        code: 'unknown_vehicle',
        hint: `no vehicle ${crumb.vehicle_id ?? `with external_ref ${crumb.external_ref}`} in this fleet; create it with POST /v1/vehicles or check the id`,
      });
      continue;
    }
    if (vehicle.status === 'inactive') {
      results.push({
        index,
        status: 'rejected',
        code: 'vehicle_inactive',
        hint: `vehicle ${vehicle.id} is deactivated; reactivate it with POST /v1/vehicles/${vehicle.id}/reactivate`,
      });
      continue;
    }
    const fixes = fixesByVehicle.get(vehicle.id) ?? [];
    fixes.push({
      latitude: crumb.latitude,
      longitude: crumb.longitude,
      recordedAtMs,
      receivedAtMs: nowMs,
      fuelLevelPercent: crumb.fuel_level_percent ?? null,
      // Spec section 2: speed arrives in mph and is stored in km/h.
      speedKmh: crumb.speed_mph === undefined ? null : Math.round(crumb.speed_mph * KMH_PER_MPH * 100) / 100,
      headingDegrees: crumb.heading_degrees ?? null,
      driverRef: crumb.driver_ref ?? null,
      address: crumb.address ?? null,
    });
    fixesByVehicle.set(vehicle.id, fixes);
    results.push({ index, status: 'accepted' });
  }

  await Promise.all(
    [...fixesByVehicle].map(async ([vehicleId, fixes]) => {
      const newest = fixes.reduce((a, b) => (b.recordedAtMs > a.recordedAtMs ? b : a));
      // History first: a worker cycle that sees the new latest position then finds every breadcrumb
      // up to it, and never moves past one still being written.
      await deps.positions.appendHistory(fleetId, vehicleId, fixes);
      await deps.positions.recordLatest(fleetId, vehicleId, newest);
    }),
  );

  const accepted = results.filter((r) => r.status === 'accepted').length;
  return {
    response: { accepted, rejected: results.length - accepted, results },
    touchedVehicleIds: [...fixesByVehicle.keys()],
  };
}
