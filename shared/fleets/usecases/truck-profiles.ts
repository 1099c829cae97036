import type { TruckProfileRequest } from '../api/truck-profile-schemas.ts';
import {
  type ResolvedTruckProfile,
  resolveTruckProfile,
  type TruckProfilePatch,
  type TruckProfileSettings,
  UNSET_TRUCK_PROFILE,
} from '../domain/truck-profile.ts';

/**
 * A request's `truck_profile` as a change: members sent replace (null clears one), members left
 * out stay; `truck_profile: null` clears them all.
 */
export function truckProfilePatchFromRequest(request: TruckProfileRequest | null): TruckProfilePatch {
  if (request === null) return { ...UNSET_TRUCK_PROFILE };
  const patch: TruckProfilePatch = {};
  if (request.height_inches !== undefined) patch.heightInches = request.height_inches;
  if (request.width_inches !== undefined) patch.widthInches = request.width_inches;
  if (request.length_feet !== undefined) patch.lengthFeet = request.length_feet;
  if (request.gross_weight_lbs !== undefined) patch.grossWeightLbs = request.gross_weight_lbs;
  if (request.axle_count !== undefined) patch.axleCount = request.axle_count;
  if (request.hazardous_cargo !== undefined) {
    patch.hazardousCargo = request.hazardous_cargo === null ? null : [...request.hazardous_cargo];
  }
  return patch;
}

type WithTruckProfile = { truckProfile?: Readonly<TruckProfileSettings> | null | undefined } | null;

/**
 * The truck a route is planned for (its `profile` is what the routing engine receives): the
 * vehicle's members, else its fleet's, else the standard truck's. Either may be absent: a manual
 * route has no vehicle, a fleet item is never expected to be missing but would read as nothing set.
 */
export function truckFor(vehicle: WithTruckProfile, fleet: WithTruckProfile): ResolvedTruckProfile {
  return resolveTruckProfile(vehicle?.truckProfile ?? null, fleet?.truckProfile ?? null);
}
