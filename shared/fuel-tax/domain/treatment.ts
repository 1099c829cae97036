/**
 * How a fleet values a gallon when choosing where to buy it:
 * - `ifta`: net of the state tax credited on the fleet's IFTA return (pump − discount − state
 *   tax), the price an interstate carrier's fuel desk works with;
 * - `pump`: pump − discount, for fleets (or trucks) that are not IFTA-qualified.
 */
export const FUEL_TAX_TREATMENTS = ['ifta', 'pump'] as const;
export type FuelTaxTreatment = (typeof FUEL_TAX_TREATMENTS)[number];

/**
 * `ifta`: the service plans for interstate trucking, whose power units over 26,000 lb crossing a
 * state line must hold an IFTA licence. A fleet item without the setting reads as this.
 */
export const DEFAULT_FUEL_TAX_TREATMENT: FuelTaxTreatment = 'ifta';

/** The vehicle's override wins (a truck that is not IFTA-qualified), else the fleet's setting. */
export function treatmentFor(
  fleet: { fuelTaxTreatment?: FuelTaxTreatment | undefined } | null | undefined,
  vehicle?: { fuelTaxTreatment?: FuelTaxTreatment | null | undefined } | null,
): FuelTaxTreatment {
  return vehicle?.fuelTaxTreatment ?? fleet?.fuelTaxTreatment ?? DEFAULT_FUEL_TAX_TREATMENT;
}
