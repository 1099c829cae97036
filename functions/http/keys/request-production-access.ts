import { requestProductionAccess } from '#shared/accounts/usecases/production-access.ts';
import { productionAccessDeps } from '#shared/accounts/wiring/production-access.ts';
import { requestProductionAccessOperation } from '#shared/keys/api/operations.ts';
import { productionAccessRequestResource } from '#shared/keys/api/serializers.ts';
import { actingPrincipal } from '#shared/platform/http/acting.ts';
import { httpHandler } from '#shared/wiring/http.ts';

export const handler = httpHandler(requestProductionAccessOperation, async ({ body }, context) => {
  const principal = actingPrincipal(context);
  const request = await requestProductionAccess(
    productionAccessDeps(),
    principal.keyId,
    principal.accountId,
    {
      useCase: body.use_case,
      expectedVehicles: body.expected_vehicles,
      contactEmail: body.contact_email,
    },
  );
  return { status: 202, body: productionAccessRequestResource(request) };
});
