import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { ApiKeyRecord } from '../domain/api-keys.ts';
import type { DocumentClient } from './dynamo-client.ts';

/** API keys: `APIKEY#<sha256>` so authentication is one GetItem on the hash of the presented key. */
export const apiKeyKey = (keyHash: string) => ({ pk: `APIKEY#${keyHash}`, sk: 'APIKEY' });

interface ApiKeyItem {
  pk: string;
  sk: string;
  key_id: string;
  name: string;
  owner_type: ApiKeyRecord['ownerType'];
  partner_id: string | null;
  fleet_id: string | null;
  mode: ApiKeyRecord['mode'];
  scopes: string[];
  status: ApiKeyRecord['status'];
  plan_name: string;
  created_at: string;
}

export function toApiKeyItem(keyHash: string, key: ApiKeyRecord): ApiKeyItem {
  return {
    ...apiKeyKey(keyHash),
    key_id: key.keyId,
    name: key.name,
    owner_type: key.ownerType,
    partner_id: key.partnerId,
    fleet_id: key.fleetId,
    mode: key.mode,
    scopes: [...key.scopes],
    status: key.status,
    plan_name: key.planName,
    created_at: key.createdAt,
  };
}

export function fromApiKeyItem(item: ApiKeyItem): ApiKeyRecord {
  return {
    keyId: item.key_id,
    name: item.name,
    ownerType: item.owner_type,
    partnerId: item.partner_id ?? null,
    fleetId: item.fleet_id ?? null,
    mode: item.mode,
    scopes: item.scopes as ApiKeyRecord['scopes'],
    status: item.status,
    planName: item.plan_name,
    createdAt: item.created_at,
  };
}

export interface ApiKeyStore {
  findByHash(keyHash: string): Promise<ApiKeyRecord | null>;
  put(keyHash: string, key: ApiKeyRecord): Promise<void>;
}

export function createApiKeyStore(client: DocumentClient, tableName: string): ApiKeyStore {
  return {
    async findByHash(keyHash) {
      // Strongly consistent: a revoked or suspended key must stop working at once.
      const { Item } = await client.send(
        new GetCommand({ TableName: tableName, Key: apiKeyKey(keyHash), ConsistentRead: true }),
      );
      return Item ? fromApiKeyItem(Item as ApiKeyItem) : null;
    },
    async put(keyHash, key) {
      await client.send(new PutCommand({ TableName: tableName, Item: toApiKeyItem(keyHash, key) }));
    },
  };
}
