import { putFuelTaxRateOperation } from '#shared/admin/api/operations.ts';
import { fuelTaxRateResource } from '#shared/admin/api/serializers.ts';
import { adminHandler, fuelTaxRateDeps } from '#shared/admin/wiring/admin.ts';
import { putFuelTaxRate } from '#shared/fuel-tax/usecases/fuel-tax-rate-operations.ts';
import { ok } from '#shared/platform/http/types.ts';

export const handler = adminHandler(putFuelTaxRateOperation, async ({ params, body }, { operator }) =>
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
