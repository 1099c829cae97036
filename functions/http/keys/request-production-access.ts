import { requestProductionAccessRoute } from '../../../shared/api/routes/keys.ts';
import { productionAccessRequestResource } from '../../../shared/api/serializers/keys.ts';
import { actingPrincipal } from '../../../shared/platform/http/acting.ts';
import { requestProductionAccess } from '../../../shared/usecases/production-access.ts';
import { productionAccessDeps } from '../../../shared/wiring/access.ts';
import { httpHandler } from '../../../shared/wiring/http.ts';

export const handler = httpHandler(requestProductionAccessRoute, async ({ body }, context) => {
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
