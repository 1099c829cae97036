import { putFuelTaxRateRoute } from '../../shared/api/admin-routes.ts';
import { fuelTaxRateResource } from '../../shared/api/serializers/admin.ts';
import { ok } from '../../shared/platform/http/types.ts';
import { putFuelTaxRate } from '../../shared/usecases/fuel-tax-rate-operations.ts';
import { adminHandler, fuelTaxRateDeps } from '../../shared/wiring/admin.ts';

export const handler = adminHandler(putFuelTaxRateRoute, async ({ params, body }, { operator }) =>
  ok(
    fuelTaxRateResource(
      await putFuelTaxRate(fuelTaxRateDeps(), operator.id, {
        state: params.state,
        usdPerGallon: body.usd_per_gallon,
        effectiveFrom: body.effective_from,
      }),
    ),
  ),
);
