import { centsToUsd, type FuelProgram } from '#shared/fuel-programs/domain/program.ts';
import type { Fleet } from '../domain/fleet.ts';
import { truckProfileSettingsResource } from './truck-profile-serializers.ts';

/**
 * Member order here is the order on the wire; create responses and GETs both come through this
 * function, which is what makes them agree byte for byte.
 */
export function fleetResource(fleet: Fleet) {
  return {
    id: fleet.id,
    name: fleet.name,
    external_ref: fleet.externalRef,
    contact_email: fleet.contactEmail,
    timezone: fleet.timezone,
    status: fleet.status,
    default_min_arrival_fuel_percent: fleet.defaultMinArrivalFuelPercent,
    assumed_departure_fuel_percent: fleet.assumedDepartureFuelPercent,
    fuel_tax_treatment: fleet.fuelTaxTreatment,
    fuel_program: fuelProgramResource(fleet.fuelProgram),
    truck_profile: truckProfileSettingsResource(fleet.truckProfile),
    created_at: fleet.createdAt,
    updated_at: fleet.updatedAt,
  };
}

export function fuelProgramResource(program: FuelProgram) {
  return {
    rule: program.rule,
    chains: program.chains.map(({ chain, discountCents }) => ({
      chain,
      discount_usd_per_gallon: centsToUsd(discountCents),
    })),
    off_program_penalty_usd_per_gallon: centsToUsd(program.offProgramPenaltyCents),
    updated_at: program.updatedAt,
  };
}
