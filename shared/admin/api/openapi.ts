import { buildOpenApiDocument, type DocumentProfile, type OpenApiDocument } from '#shared/api/openapi.ts';
import { adminOperationExamples } from './examples.ts';
import { adminRouteList } from './operations.ts';

/**
 * The operator API's document (admin-openapi.json, served at GET /admin/v1/openapi.json on the
 * production stage): the same generator as openapi.json, with the operator routes and their
 * authentication instead of API keys.
 */
export const ADMIN_DOCUMENT: DocumentProfile = {
  title: 'Fleet Fuel Guidance operator API',
  description: `The operator's side of access: onboarding partners and companies, production-access \
decisions, keys, plans, the state diesel tax table and the audit trail. Not part of the public API (openapi.json never lists it).

## Where it runs

On the **production stage only**, under \`/admin/v1/\`; the sandbox stage answers 404 for these paths.

## Authentication

- **AWS**: API Gateway's IAM authorizer on every route. Sign requests with SigV4 (service \
\`execute-api\`) using credentials of the operators' role (stack \`FleetFuel-control\`, output \
\`OperatorRoleArn\`); an unsigned or wrongly signed request is refused by API Gateway before any \
function runs (403 \`{"message":"Forbidden"}\`). The caller's ARN is the actor in the audit trail.
- **Local stack**: \`Authorization: Bearer <operator_token>\` from \`.local/credentials.json\`.

Without credentials: 401 \`missing_api_key\`; an unknown token: 401 \`invalid_api_key\`; an API key \
(\`svc_live_\`/\`svc_test_\`): 403 \`insufficient_scope\` (\`required_scope: operator\`).

## Conventions

As the public API: JSON, snake_case, problem+json errors (422 \`validation_failed\` with \`errors\`), \
cursor pagination (\`{ data, next_cursor }\`). Secrets of new keys are answered once.`,
  tagDescriptions: {
    Discovery: 'This document.',
    Accounts: 'Partners and companies: onboarding and their plan.',
    'Production access': 'Companies’ requests for live keys, and the operator’s decisions.',
    Keys: 'Any account’s keys: create, suspend, reinstate, revoke.',
    Plans: 'Rate limits, monthly quotas, station budgets and enumeration thresholds.',
    'Fuel tax':
      'The state diesel tax rates (IFTA) that prices are made on: shipped, and updated by operators.',
    Audit: 'Who did what to access, when, and why.',
    Operations:
      'Whether the stage serves production data: the station catalog it serves, price freshness, the latest price import, the routing engine.',
  },
  securityScheme: {
    name: 'operator',
    scheme: {
      type: 'apiKey',
      in: 'header',
      name: 'Authorization',
      description:
        'AWS: a SigV4 signature (service `execute-api`) of the operators’ role. Local stack: `Bearer <operator_token>`.',
      'x-amazon-apigateway-authtype': 'awsSigv4',
    },
  },
  serverDescription:
    'Placeholder; GET /admin/v1/openapi.json on the production stage serves its base URL here.',
};

export function buildAdminOpenApiDocument(): OpenApiDocument {
  return buildOpenApiDocument(adminRouteList, adminOperationExamples, ADMIN_DOCUMENT);
}
