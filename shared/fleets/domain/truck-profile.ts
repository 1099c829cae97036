/**
 * The truck a route is planned for: dimensions, gross weight, axles and hazardous cargo, in the
 * API's US units. A vehicle may set any of them, its fleet may set defaults, and the rest is the
 * standard US class-8 tractor with one 53-foot van trailer at the federal limits.
 */

/**
 * Hazardous cargo classes a routing engine can restrict roads for (Amazon Location's
 * `HazardousCargos`, in snake case). docs/routing.md maps the US DOT hazard classes onto them.
 */
export const HAZARDOUS_CARGO = [
  'explosive',
  'gas',
  'flammable',
  'combustible',
  'organic',
  'poison',
  'poison_inhalation',
  'radioactive',
  'corrosive',
  'harmful_to_water',
  'other',
] as const;

export type HazardousCargo = (typeof HAZARDOUS_CARGO)[number];

export interface TruckProfile {
  heightInches: number;
  widthInches: number;
  lengthFeet: number;
  grossWeightLbs: number;
  /** All axles, tractor and trailer together. */
  axleCount: number;
  /** Empty: no hazardous cargo. */
  hazardousCargo: HazardousCargo[];
}

/** What a vehicle or a fleet stores: each member null until set (then the next level's applies). */
export type TruckProfileSettings = { [K in keyof TruckProfile]: TruckProfile[K] | null };

export const TRUCK_PROFILE_FIELDS = [
  'heightInches',
  'widthInches',
  'lengthFeet',
  'grossWeightLbs',
  'axleCount',
  'hazardousCargo',
] as const satisfies readonly (keyof TruckProfile)[];

export const UNSET_TRUCK_PROFILE: Readonly<TruckProfileSettings> = {
  heightInches: null,
  widthInches: null,
  lengthFeet: null,
  grossWeightLbs: null,
  axleCount: null,
  hazardousCargo: null,
};

/**
 * The standard truck, for every member neither the vehicle nor its fleet set:
 * - 162 in high: 13 ft 6 in, the usual van-trailer height (no federal limit; most states set 13'6").
 * - 102 in wide: the federal width limit (23 CFR 658.15).
 * - 70 ft long: a day-cab or mid-roof tractor pulling a 53 ft trailer.
 * - 80,000 lb gross: the federal gross-weight limit on the Interstate (23 U.S.C. 127).
 * - 5 axles: steer, tandem drive, tandem trailer (the 3-S2 configuration).
 * - no hazardous cargo.
 */
export const STANDARD_TRUCK: Readonly<TruckProfile> = {
  heightInches: 162,
  widthInches: 102,
  lengthFeet: 70,
  grossWeightLbs: 80_000,
  axleCount: 5,
  hazardousCargo: [],
};

/**
 * Accepted ranges (inclusive), wide enough for a box truck and for a permitted heavy haul, narrow
 * enough to catch a value sent in the wrong unit (centimetres for inches, kilograms for pounds).
 */
export const TRUCK_PROFILE_RANGES = {
  heightInches: { min: 72, max: 168 },
  widthInches: { min: 72, max: 120 },
  lengthFeet: { min: 20, max: 120 },
  grossWeightLbs: { min: 10_000, max: 200_000 },
  axleCount: { min: 2, max: 13 },
} as const;

export type TruckProfileSource = 'vehicle' | 'fleet' | 'standard';

/** A profile a route uses, and where each of its members came from. */
export interface ResolvedTruckProfile {
  profile: TruckProfile;
  sources: Record<keyof TruckProfile, TruckProfileSource>;
}

/**
 * The profile a route uses: each member from the vehicle when it set one, else from the fleet,
 * else the standard truck; `sources` says where each came from.
 *
 * @example
 * resolveTruckProfile({ ...UNSET_TRUCK_PROFILE, heightInches: 150 }, UNSET_TRUCK_PROFILE).profile.heightInches // 150
 */
export function resolveTruckProfile(
  vehicle: Readonly<TruckProfileSettings> | null,
  fleet: Readonly<TruckProfileSettings> | null,
): ResolvedTruckProfile {
  const profile = { ...STANDARD_TRUCK, hazardousCargo: [...STANDARD_TRUCK.hazardousCargo] } as TruckProfile;
  const sources = {} as Record<keyof TruckProfile, TruckProfileSource>;
  for (const field of TRUCK_PROFILE_FIELDS) {
    const own = vehicle?.[field] ?? null;
    const fleetValue = fleet?.[field] ?? null;
    const value = own ?? fleetValue;
    sources[field] = own !== null ? 'vehicle' : fleetValue !== null ? 'fleet' : 'standard';
    if (value !== null)
      (profile as unknown as Record<string, unknown>)[field] = Array.isArray(value) ? [...value] : value;
  }
  return { profile, sources };
}

/**
 * A change to stored settings: a member present replaces the stored one (null clears it, so the
 * next level's applies again); a member absent stays as it was.
 */
export type TruckProfilePatch = Partial<TruckProfileSettings>;

/**
 * The settings after a change.
 *
 * @example
 * applyTruckProfilePatch({ ...UNSET_TRUCK_PROFILE, heightInches: 150 }, { axleCount: 6 });
 * // heightInches 150, axleCount 6, the rest null
 */
export function applyTruckProfilePatch(
  current: Readonly<TruckProfileSettings>,
  patch: TruckProfilePatch,
): TruckProfileSettings {
  const next = { ...current } as Record<keyof TruckProfile, unknown>;
  for (const field of TRUCK_PROFILE_FIELDS) {
    const value = patch[field];
    if (value !== undefined) next[field] = Array.isArray(value) ? [...value] : value;
  }
  return next as TruckProfileSettings;
}

/** Whether two settings say the same thing (cargo classes compared as sets). */
export function sameTruckProfileSettings(
  a: Readonly<TruckProfileSettings>,
  b: Readonly<TruckProfileSettings>,
): boolean {
  return TRUCK_PROFILE_FIELDS.every((field) => {
    const left = a[field];
    const right = b[field];
    if (Array.isArray(left) && Array.isArray(right)) {
      return left.length === right.length && left.every((cargo) => right.includes(cargo));
    }
    return left === right;
  });
}
