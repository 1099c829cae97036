import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { DocumentClient } from '#shared/table/dynamo-client.ts';
import { queryAll } from '#shared/table/query-pages.ts';
import { GSI1 } from '#shared/table/table.ts';
import type { Plan } from '../domain/plans.ts';

export const planKey = (name: string) => ({ pk: `PLAN#${name}`, sk: 'PLAN' });
/** Every plan is also indexed on gsi1 under one key, by name, so the operator lists them with one query. */
const planIndex = (name: string) => ({ gsi1pk: 'PLANS', gsi1sk: name });

interface PlanItem {
  pk: string;
  sk: string;
  gsi1pk?: string;
  gsi1sk?: string;
  name: string;
  rate_limit_per_min: number;
  monthly_quota: Plan['monthlyQuota'];
  station_query_budget: number;
  price_query_cap?: number;
  enumeration_guard?: Plan['enumerationGuard'];
}

export interface PlanStore {
  get(name: string): Promise<Plan | null>;
  put(plan: Plan): Promise<void>;
  /** Every plan by name (written by `put`; a plan item without its index entry needs a re-put). */
  list(): Promise<Plan[]>;
}

/** Plans change rarely; a container keeps one for a minute instead of reading it per request. */
const PLAN_CACHE_MS = 60_000;

export function createPlanStore(
  client: DocumentClient,
  tableName: string,
  now: () => number = Date.now,
): PlanStore {
  const cache = new Map<string, { plan: Plan; until: number }>();
  return {
    async get(name) {
      const hit = cache.get(name);
      if (hit && hit.until > now()) return hit.plan;
      const { Item } = await client.send(new GetCommand({ TableName: tableName, Key: planKey(name) }));
      if (!Item) return null;
      const plan = fromPlanItem(Item as PlanItem);
      cache.set(name, { plan, until: now() + PLAN_CACHE_MS });
      return plan;
    },
    async put(plan) {
      const item: PlanItem = {
        ...planKey(plan.name),
        ...planIndex(plan.name),
        name: plan.name,
        rate_limit_per_min: plan.rateLimitPerMin,
        monthly_quota: plan.monthlyQuota,
        station_query_budget: plan.stationQueryBudget,
        price_query_cap: plan.priceQueryCap,
        ...(plan.enumerationGuard ? { enumeration_guard: plan.enumerationGuard } : {}),
      };
      await client.send(new PutCommand({ TableName: tableName, Item: item }));
      cache.delete(plan.name);
    },
    async list() {
      const items = await queryAll(client, {
        TableName: tableName,
        IndexName: GSI1,
        KeyConditionExpression: 'gsi1pk = :plans',
        ExpressionAttributeValues: { ':plans': 'PLANS' },
      });
      return items.map((item) => fromPlanItem(item as PlanItem));
    },
  };
}

function fromPlanItem(item: PlanItem): Plan {
  return {
    name: item.name,
    rateLimitPerMin: item.rate_limit_per_min,
    monthlyQuota: item.monthly_quota ?? {},
    stationQueryBudget: item.station_query_budget,
    // A plan without a cap gets the absolute maximum (1–25: docs/operator-api.md).
    priceQueryCap: item.price_query_cap ?? 25,
    ...(item.enumeration_guard ? { enumerationGuard: item.enumeration_guard } : {}),
  };
}
