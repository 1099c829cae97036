import * as z from 'zod/mini';
import { FUEL_TAX_TREATMENTS } from '../domain/treatment.ts';

const TREATMENT_MESSAGE =
  'must be ifta (price a gallon net of the state tax credited on the IFTA return) or pump (the pump price less the fleet’s discount)';

/** The basis a fleet, a truck or an answer prices fuel on. */
export const fuelTaxTreatment = z.enum(FUEL_TAX_TREATMENTS, { error: TREATMENT_MESSAGE });

export const fleetFuelTaxTreatment = fuelTaxTreatment.check(
  z.meta({
    description:
      'How the fleet values a gallon when choosing where to buy: `ifta` (pump − discount − the state diesel tax credited on the IFTA return) or `pump` (pump − discount, for fleets that are not IFTA-qualified). `ifta` unless the fleet set another.',
  }),
);

export const vehicleFuelTaxTreatment = z.nullable(fuelTaxTreatment).check(
  z.meta({
    description:
      'The truck’s own fuel tax treatment (`pump` for a truck that is not IFTA-qualified); null: the fleet’s `fuel_tax_treatment`.',
  }),
);
