import {
  DEFAULT_ASSUMED_DEPARTURE_FUEL_PERCENT,
  DEFAULT_MIN_ARRIVAL_FUEL_PERCENT,
  type Fleet,
} from '#shared/fleets/domain/fleet.ts';
import { UNSET_TRUCK_PROFILE } from '#shared/fleets/domain/truck-profile.ts';
import {
  type ChainDiscounts,
  type FuelProgram,
  NO_FUEL_PROGRAM,
} from '#shared/fuel-programs/domain/program.ts';

const CREATED_AT = '2026-11-01T00:00:00.000000Z';

/** A company's own fleet with the defaults a new one has, and `fields` over them. */
export function companyFleet(id: string, fields: Partial<Omit<Fleet, 'id'>> = {}): Fleet {
  return {
    id,
    name: `Fleet ${id}`,
    externalRef: null,
    contactEmail: null,
    timezone: 'UTC',
    status: 'active',
    defaultMinArrivalFuelPercent: DEFAULT_MIN_ARRIVAL_FUEL_PERCENT,
    assumedDepartureFuelPercent: DEFAULT_ASSUMED_DEPARTURE_FUEL_PERCENT,
    fuelTaxTreatment: 'ifta',
    fuelProgram: NO_FUEL_PROGRAM,
    truckProfile: { ...UNSET_TRUCK_PROFILE },
    partnerId: null,
    createdAt: CREATED_AT,
    updatedAt: CREATED_AT,
    ...fields,
  };
}

/** A card's discounts by chain as a program that steers nothing (rule none): discounts only. */
export function discountsOnlyProgram(discounts: ChainDiscounts): FuelProgram {
  return {
    rule: 'none',
    chains: Object.entries(discounts).map(([chain, discountCents]) => ({ chain, discountCents })),
    offProgramPenaltyCents: 0,
    updatedAt: CREATED_AT,
  };
}
