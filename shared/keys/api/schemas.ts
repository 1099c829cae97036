import * as z from 'zod/mini';
import {
  emailAddress,
  extendWithoutMeta,
  optionalReason,
  pageOf,
  pageQuery,
  publicId,
  timestamp,
} from '#shared/api/common-schemas.ts';
import { SCOPES } from '#shared/kernel/access.ts';

const scopeList = z.array(z.enum(SCOPES)).check(
  z.minLength(1),
  z.maxLength(SCOPES.length),
  z.refine((scopes) => new Set(scopes).size === scopes.length, { message: 'lists a scope twice' }),
  z.meta({
    description: 'Scopes the key holds; never more than the creating key holds',
    example: ['guidance:read'],
  }),
);

export const createKeyBody = z
  .strictObject({
    owner_type: z
      .enum(['company', 'partner'])
      .check(z.meta({ description: "Required; must be the caller's account type (spec §5.5)" })),
    name: z
      .string()
      .check(z.trim(), z.minLength(1), z.maxLength(100), z.meta({ example: 'dispatch backend' })),
    scopes: scopeList,
    mode: z.enum(['live', 'test']).check(
      z.meta({
        description: '`test` (sandbox) is always allowed; `live` needs approved production access',
      }),
    ),
    expires_at: z
      .optional(z.iso.datetime({ offset: true }))
      .check(z.meta({ description: 'RFC 3339; the key stops working then. Omitted: never expires' })),
  })
  .check(z.meta({ id: 'CreateKeyRequest' }));

export const keyIdParams = z.object({ id: publicId('apiKey') });

export const listKeysQuery = z.strictObject({ ...pageQuery });

export const rotateKeyBody = z
  .strictObject({
    expire_previous: z
      .optional(z.boolean())
      .check(z.meta({ description: 'true: the replaced secret stops at once instead of after 24 hours' })),
  })
  .check(z.meta({ id: 'RotateKeyRequest' }));

export const revokeKeyBody = z
  .strictObject({ reason: optionalReason('Why; shown in the 401 key_revoked detail of later calls') })
  .check(z.meta({ id: 'RevokeKeyRequest' }));

export const keySchema = z
  .object({
    object: z.literal('api_key'),
    id: publicId('apiKey'),
    name: z.string(),
    owner_type: z.enum(['company', 'partner']),
    mode: z.enum(['live', 'test']),
    scopes: z.array(z.enum(SCOPES)),
    status: z.enum(['active', 'suspended', 'revoked']),
    revoked_reason: z.nullable(z.string()),
    plan: z.string(),
    created_at: timestamp,
    expires_at: z.nullable(timestamp),
    last_used_at: z
      .nullable(timestamp)
      .check(z.meta({ description: 'Hour-grained: refreshed at most once an hour' })),
  })
  .check(z.meta({ id: 'ApiKey', description: 'A key as its owner sees it: never its secret' }));

export const keyWithSecretSchema = extendWithoutMeta(keySchema, {
  secret: z.string().check(z.meta({ description: 'Shown this once; only its SHA-256 is stored' })),
  previous_secret_expires_at: z
    .nullable(timestamp)
    .check(z.meta({ description: 'On rotation: when the replaced secret stops working' })),
}).check(z.meta({ id: 'ApiKeyWithSecret' }));

export const keyPage = pageOf(keySchema, 'ApiKeyPage');

export const productionAccessBody = z
  .strictObject({
    use_case: z
      .string()
      .check(
        z.trim(),
        z.minLength(10),
        z.maxLength(2000),
        z.meta({ example: 'Fuel guidance for our 120 regional trucks' }),
      ),
    expected_vehicles: z.number().check(z.int(), z.minimum(1), z.maximum(100_000)),
    contact_email: emailAddress,
  })
  .check(z.meta({ id: 'ProductionAccessRequestBody' }));

export const productionAccessRequestSchema = z
  .object({
    object: z.literal('production_access_request'),
    id: publicId('productionAccess'),
    status: z.enum(['pending', 'approved', 'denied', 'revoked']),
    use_case: z.string(),
    expected_vehicles: z.number().check(z.int()),
    contact_email: z.string(),
    requested_at: timestamp,
    decided_at: z.nullable(timestamp),
    plan: z.nullable(z.string()),
    reason: z.nullable(z.string()),
  })
  .check(z.meta({ id: 'ProductionAccessRequest' }));

export const productionAccessSchema = z
  .object({
    object: z.literal('production_access'),
    status: z.enum(['none', 'pending', 'approved', 'denied', 'revoked']),
    plan: z.nullable(z.string()).check(z.meta({ description: 'The plan granted on approval' })),
    reason: z.nullable(z.string()).check(z.meta({ description: 'Why it was denied or revoked' })),
    decided_at: z.nullable(timestamp),
    live_fleet_id: z
      .nullable(z.string())
      .check(z.meta({ description: 'The production fleet live keys act on' })),
    request: z.nullable(productionAccessRequestSchema),
  })
  .check(z.meta({ id: 'ProductionAccess' }));
