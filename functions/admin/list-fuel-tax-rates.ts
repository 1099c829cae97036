import { listFuelTaxRatesRoute } from '../../shared/api/admin-routes.ts';
import { fuelTaxRatesResource } from '../../shared/api/serializers/admin.ts';
import { ok } from '../../shared/platform/http/types.ts';
import { listFuelTaxRates } from '../../shared/usecases/fuel-tax-rate-operations.ts';
import { adminHandler, fuelTaxRateDeps } from '../../shared/wiring/admin.ts';

export const handler = adminHandler(listFuelTaxRatesRoute, async () =>
  ok(fuelTaxRatesResource(await listFuelTaxRates(fuelTaxRateDeps()))),
);
