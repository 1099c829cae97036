import { type FuelProgram, NO_FUEL_PROGRAM } from '#shared/fuel-programs/domain/program.ts';
import { DEFAULT_FUEL_TAX_TREATMENT, type FuelTaxTreatment } from '#shared/fuel-tax/domain/treatment.ts';
import { type TruckProfilePatch, type TruckProfileSettings, UNSET_TRUCK_PROFILE } from './truck-profile.ts';

export type FleetStatus = 'active' | 'inactive';

/**
 * The fleet setting behind an omitted `min_arrival_fuel_percent` (guidance and routes): the share of
 * the tank a truck should still hold at the destination. 10 % is the same margin the fuel plan keeps
 * in reserve en route, so a fleet that never sets it arrives no emptier than it drives. Fleets written
 * before the setting existed have no attribute and read as this value.
 */
export const DEFAULT_MIN_ARRIVAL_FUEL_PERCENT = 10;

/**
 * The range a fleet may set its default to. Narrower than a request's 0–100: a default applies to
 * every start that omits the field, and above half a tank most trips become infeasible or buy fuel
 * only to carry it home. A single request may still ask for more.
 */
export const FLEET_MIN_ARRIVAL_FUEL_PERCENT_RANGE = { min: 0, max: 50 } as const;

/**
 * The fleet setting behind a truck that never reported `fuel_level_percent` (no fuel sensor, or
 * not wired): the level a trip, a route or a guidance session assumes the truck departs with.
 * 100 = "departs with a full tank", what most fleets do before a long haul. A fleet item without
 * the attribute reads as this value.
 */
export const DEFAULT_ASSUMED_DEPARTURE_FUEL_PERCENT = 100;

export interface Fleet {
  id: string;
  name: string;
  externalRef: string | null;
  contactEmail: string | null;
  timezone: string;
  status: FleetStatus;
  /** Used when a guidance start or a route omits min_arrival_fuel_percent. */
  defaultMinArrivalFuelPercent: number;
  /** The level assumed at departure for a truck that never reported one. */
  assumedDepartureFuelPercent: number;
  /** How the fleet values a gallon: net of the IFTA-credited state tax (`ifta`) or not (`pump`). */
  fuelTaxTreatment: FuelTaxTreatment;
  /** The fleet's fuel card program: where its card is accepted, at what discount, how strictly. */
  fuelProgram: FuelProgram;
  /** The fleet's default truck; null members: the standard truck's. A vehicle's own members win. */
  truckProfile: TruckProfileSettings;
  /** The provisioning partner; null for a company's own fleet. */
  partnerId: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface FleetChanges {
  name?: string;
  externalRef?: string | null;
  contactEmail?: string | null;
  defaultMinArrivalFuelPercent?: number;
  assumedDepartureFuelPercent?: number;
  fuelTaxTreatment?: FuelTaxTreatment;
  /** A whole program: it replaces the fleet's, never merges with it. */
  fuelProgram?: FuelProgram;
  /** Merged member by member into the fleet's (null clears a member). */
  truckProfile?: TruckProfilePatch;
}

/**
 * The arrival margin in force: the request's own value wins; without one, the acting fleet's
 * setting; without a fleet record (never expected for an acting fleet), the documented default.
 */
export function effectiveMinArrivalFuelPercent(
  requested: number | undefined,
  fleet: Pick<Fleet, 'defaultMinArrivalFuelPercent'> | null,
): number {
  return requested ?? fleet?.defaultMinArrivalFuelPercent ?? DEFAULT_MIN_ARRIVAL_FUEL_PERCENT;
}

/**
 * A company's own fleet as it starts (no provisioning partner): active, every setting at its
 * default, no fuel program and no truck profile set.
 */
export function newCompanyFleet(
  identity: Pick<Fleet, 'id' | 'name' | 'externalRef' | 'contactEmail' | 'timezone'>,
  at: string,
): Fleet {
  return {
    ...identity,
    status: 'active',
    defaultMinArrivalFuelPercent: DEFAULT_MIN_ARRIVAL_FUEL_PERCENT,
    assumedDepartureFuelPercent: DEFAULT_ASSUMED_DEPARTURE_FUEL_PERCENT,
    fuelTaxTreatment: DEFAULT_FUEL_TAX_TREATMENT,
    fuelProgram: NO_FUEL_PROGRAM,
    truckProfile: { ...UNSET_TRUCK_PROFILE },
    partnerId: null,
    createdAt: at,
    updatedAt: at,
  };
}
