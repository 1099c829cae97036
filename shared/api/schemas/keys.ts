import * as z from 'zod';
import { SCOPES } from '../../domain/access.ts';
import { emailAddress, optionalReason, pageOf, pageQuery, publicId, timestamp } from './common.ts';

const scopeList = z
  .array(z.enum(SCOPES))
  .min(1)
  .max(SCOPES.length)
  .refine((scopes) => new Set(scopes).size === scopes.length, { message: 'lists a scope twice' })
  .meta({
    description: 'Scopes the key holds; never more than the creating key holds',
    example: ['guidance:read'],
  });

export const createKeyBody = z
  .strictObject({
    owner_type: z
      .enum(['company', 'partner'])
      .meta({ description: "Required; must be the caller's account type (spec §5.5)" }),
    name: z.string().trim().min(1).max(100).meta({ example: 'dispatch backend' }),
    scopes: scopeList,
    mode: z
      .enum(['live', 'test'])
      .meta({ description: '`test` (sandbox) is always allowed; `live` needs approved production access' }),
    expires_at: z.iso
      .datetime({ offset: true })
      .optional()
      .meta({ description: 'RFC 3339; the key stops working then. Omitted: never expires' }),
  })
  .meta({ id: 'CreateKeyRequest' });

export const keyIdParams = z.object({ id: publicId('apiKey') });

export const listKeysQuery = z.strictObject({ ...pageQuery });

export const rotateKeyBody = z
  .strictObject({
    expire_previous: z
      .boolean()
      .optional()
      .meta({ description: 'true: the replaced secret stops at once instead of after 24 hours' }),
  })
  .meta({ id: 'RotateKeyRequest' });

export const revokeKeyBody = z
  .strictObject({ reason: optionalReason('Why; shown in the 401 key_revoked detail of later calls') })
  .meta({ id: 'RevokeKeyRequest' });

export const keySchema = z
  .object({
    object: z.literal('api_key'),
    id: publicId('apiKey'),
    name: z.string(),
    owner_type: z.enum(['company', 'partner']),
    mode: z.enum(['live', 'test']),
    scopes: z.array(z.enum(SCOPES)),
    status: z.enum(['active', 'suspended', 'revoked']),
    revoked_reason: z.string().nullable(),
    plan: z.string(),
    created_at: timestamp,
    expires_at: timestamp.nullable(),
    last_used_at: timestamp.nullable().meta({ description: 'Hour-grained: refreshed at most once an hour' }),
  })
  .meta({ id: 'ApiKey', description: 'A key as its owner sees it: never its secret' });

export const keyWithSecretSchema = keySchema
  .extend({
    secret: z.string().meta({ description: 'Shown this once; only its SHA-256 is stored' }),
    previous_secret_expires_at: timestamp
      .nullable()
      .meta({ description: 'On rotation: when the replaced secret stops working' }),
  })
  .meta({ id: 'ApiKeyWithSecret' });

export const keyPage = pageOf(keySchema, 'ApiKeyPage');

export const productionAccessBody = z
  .strictObject({
    use_case: z
      .string()
      .trim()
      .min(10)
      .max(2000)
      .meta({ example: 'Fuel guidance for our 120 regional trucks' }),
    expected_vehicles: z.number().int().min(1).max(100_000),
    contact_email: emailAddress,
  })
  .meta({ id: 'ProductionAccessRequestBody' });

export const productionAccessRequestSchema = z
  .object({
    object: z.literal('production_access_request'),
    id: publicId('productionAccess'),
    status: z.enum(['pending', 'approved', 'denied', 'revoked']),
    use_case: z.string(),
    expected_vehicles: z.number().int(),
    contact_email: z.string(),
    requested_at: timestamp,
    decided_at: timestamp.nullable(),
    plan: z.string().nullable(),
    reason: z.string().nullable(),
  })
  .meta({ id: 'ProductionAccessRequest' });

export const productionAccessSchema = z
  .object({
    object: z.literal('production_access'),
    status: z.enum(['none', 'pending', 'approved', 'denied', 'revoked']),
    plan: z.string().nullable().meta({ description: 'The plan granted on approval' }),
    reason: z.string().nullable().meta({ description: 'Why it was denied or revoked' }),
    decided_at: timestamp.nullable(),
    live_fleet_id: z.string().nullable().meta({ description: 'The production fleet live keys act on' }),
    request: productionAccessRequestSchema.nullable(),
  })
  .meta({ id: 'ProductionAccess' });
