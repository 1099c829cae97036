import type { FleetStore } from '#shared/fleets/store/fleets.ts';
import { type FuelTaxTreatment, treatmentFor } from '#shared/fuel-tax/domain/treatment.ts';
import type { FuelTaxRatesProvider } from '#shared/fuel-tax/usecases/fuel-tax-rates.ts';
import { stateAt } from '#shared/geo/us-states.ts';
import type { Fueling } from '#shared/tracking/domain/fueling-record.ts';
import type { Vehicle } from '#shared/vehicles/domain/vehicle.ts';

/** What pricing a fill on the fleet's basis reads: the tax table and, for the treatment, the fleet. */
export interface FillBasisDeps {
  fuelTaxes: FuelTaxRatesProvider;
  fleets?: Pick<FleetStore, 'get'> | undefined;
}

type VehicleSetting = Pick<Vehicle, 'fuelTaxTreatment'>;

/** The treatment a fill of this vehicle is recorded under: its override, else the fleet's setting. */
export async function fillTreatment(
  deps: Pick<FillBasisDeps, 'fleets'>,
  fleetId: string,
  vehicle: VehicleSetting,
): Promise<FuelTaxTreatment> {
  if (vehicle.fuelTaxTreatment) return vehicle.fuelTaxTreatment;
  return treatmentFor(deps.fleets ? await deps.fleets.get(fleetId) : null, vehicle);
}

/**
 * The fill with its price basis: the state it was bought in (the station's, else the one its
 * position lies in), the state diesel tax of the table at `fueled_at` there, and the treatment.
 * The effective price, counterfactual and savings follow when it is judged (fill-pricing.ts).
 */
export async function withPriceBasis(
  deps: FillBasisDeps,
  fueling: Fueling,
  treatment: FuelTaxTreatment,
  stationState: string | null = null,
): Promise<Fueling> {
  // The station's own position first: a truck at the pumps of a border station may read across the line.
  const latitude = fueling.station?.latitude ?? fueling.latitude ?? null;
  const longitude = fueling.station?.longitude ?? fueling.longitude ?? null;
  const state =
    stationState ??
    fueling.state ??
    (latitude !== null && longitude !== null ? (stateAt(latitude, longitude) ?? null) : null);
  const table = await deps.fuelTaxes.current();
  const stateTax = state === null ? null : table.rateOf(state, Date.parse(fueling.fueledAt));
  return { ...fueling, state, stateTax, taxTreatment: treatment };
}
