import { listFuelTaxRatesOperation } from '#shared/admin/api/operations.ts';
import { fuelTaxRatesResource } from '#shared/admin/api/serializers.ts';
import { adminHandler, fuelTaxRateDeps } from '#shared/admin/wiring/admin.ts';
import { listFuelTaxRates } from '#shared/fuel-tax/usecases/fuel-tax-rate-operations.ts';
import { ok } from '#shared/platform/http/types.ts';

export const handler = adminHandler(listFuelTaxRatesOperation, async () =>
  ok(fuelTaxRatesResource(await listFuelTaxRates(fuelTaxRateDeps()))),
);
