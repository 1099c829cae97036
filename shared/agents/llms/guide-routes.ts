import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { fieldErrorSchema, PAGE_LIMIT } from '#shared/api/common-schemas.ts';
import { routeList } from '#shared/api/route-table.ts';
import { EVENT_CATALOG } from '#shared/events/domain/events.ts';
import { ID_PREFIXES, type IdKind, publicIdExample } from '#shared/kernel/ids.ts';
import { KEY_PREFIX, type KeyMode } from '#shared/keys/domain/api-key.ts';
import { RATE_WINDOW_SECONDS } from '#shared/plans/domain/rate-window.ts';
import type { Stage } from '#shared/platform/config.ts';
import { FLEET_HEADER } from '#shared/platform/http/authorize.ts';
import {
  IDEMPOTENCY_KEY_MAX_LENGTH,
  IDEMPOTENT_REPLAYED_HEADER,
} from '#shared/platform/http/idempotency-key.ts';
import type { RouteDefinition } from '#shared/platform/http/route-definition.ts';
import { WEBHOOK_TIMEOUT_MS } from '#shared/platform/webhook-sender.ts';
import { MAX_ADVANCE_MINUTES, SIM_EXTERNAL_REFS } from '#shared/sandbox/domain/simulation.ts';
import { MAX_DELIVERY_ATTEMPTS, RETRY_DELAYS_SECONDS } from '#shared/webhooks/domain/retry-schedule.ts';
import { WEBHOOK_SECRET_PREFIX } from '#shared/webhooks/domain/signature.ts';
import { DEFAULT_TOLERANCE_SECONDS } from '../../../webhooks-receiver/index.ts';
import { hiddenFromMcp, mcpTools, sandboxToolOperations } from '../api/mcp-tools.ts';
import { readListedTools } from '../mcp/listed-tools.ts';
import { FLEET_ARGUMENT, IDEMPOTENCY_ARGUMENT } from '../mcp/tools.ts';
import { SANDBOX_TOOL_NAMES, STAGE_KEY_MODE, visibleTools } from '../mcp/visibility.ts';

/**
 * What the llms.txt guide says comes from here: the operations of the route table and every fact
 * the guide states (prefixes, limits, tools), each read from the code that decides it. Run from
 * source (tests, the local stack) they are read as written below. They bring the route table, the
 * schemas and the MCP tools' JSON Schemas (hundreds of KB of the guide's function, for a page of
 * text), so the Lambda bundle replaces this module with one reading `guide-routes.json` and
 * `guide-facts.json` beside it, which the build writes from these very functions
 * (scripts/bundle-functions.ts, `lazyDataFiles`).
 */

/** What the guide says of an operation: no schemas. */
export type GuideRoute = Pick<
  RouteDefinition,
  'operationId' | 'method' | 'path' | 'summary' | 'tags' | 'access' | 'scope' | 'idempotent'
> & {
  /** The success statuses it answers (204: no body). */
  statuses: number[];
};

/** The operations the guide lists, in route-table order. */
export function readGuideRoutes(): GuideRoute[] {
  return routeList.map(
    ({ operationId, method, path, summary, tags, access, scope, idempotent, responses }) => ({
      operationId,
      method,
      path,
      summary,
      tags,
      access,
      scope,
      idempotent,
      statuses: responses.map((response) => response.status),
    }),
  );
}

/**
 * What each public id prefix names, in the guide's words; null for a kind only the operator API
 * shows. Typed by the id registry, so a new kind cannot be left out of the guide.
 */
const ID_KIND_NAMES: Record<IdKind, string | null> = {
  fleet: 'fleet',
  vehicle: 'vehicle',
  route: 'route',
  trip: 'trip',
  tripStop: 'trip stop',
  guidance: 'guidance session',
  guidanceStop: 'guidance stop',
  fueling: 'fueling',
  webhookEndpoint: 'webhook endpoint',
  webhookDelivery: 'webhook delivery',
  event: 'event',
  station: 'station',
  request: 'request (a problem’s `request_id`)',
  partner: 'partner account',
  company: 'company account',
  apiKey: 'API key',
  productionAccess: 'production-access request',
  auditEntry: null,
};

/** An MCP tool as the guide names it: its name and the operation it runs. */
export interface GuideTool {
  name: string;
  operationId: string;
}

export interface GuideFacts {
  /** The public id prefixes (without `_`), each with what it names. */
  idPrefixes: { prefix: string; names: string }[];
  /** Prefixes by kind, for the worked examples' ids. */
  prefixOf: Record<IdKind, string>;
  /** A well-formed id, to show the ULID part. */
  idExample: string;
  keyPrefixes: Record<KeyMode, string>;
  fleetHeader: string;
  pageLimit: { default: number; max: number };
  idempotencyKeyMaxLength: number;
  idempotentReplayedHeader: string;
  /** The members of one `errors` entry of a `validation_failed` problem. */
  fieldErrorMembers: string[];
  rateWindowSeconds: number;
  eventTypes: string[];
  webhookSecretPrefix: string;
  webhookTimeoutSeconds: number;
  signatureToleranceSeconds: number;
  deliveryAttempts: number;
  /** Hours from the first attempt to the last, without jitter, to 0.1. */
  deliveryRetryHours: number;
  simulatedTrucks: string[];
  maxAdvanceMinutes: number;
  /** The JSON-RPC error code of a call to a tool that tools/list does not name. */
  unknownToolErrorCode: number;
  /** The tools tools/list shows on each stage, to the keys that stage takes. */
  tools: Record<Stage, GuideTool[]>;
  /** The tool arguments that carry a partner key's fleet and an Idempotency-Key. */
  toolArguments: { fleet: string; idempotency: string };
  /** The simulator's tool names. */
  sandboxTools: string[];
  /** The operations that are not tools, by operationId, with why. */
  notTools: Record<string, string>;
}

/** The facts the guide states, each from its source. */
export function readGuideFacts(): GuideFacts {
  const listed = readListedTools();
  const toolsOn = (stage: Stage): GuideTool[] =>
    visibleTools({
      tools: listed,
      sandboxTools: SANDBOX_TOOL_NAMES,
      principal: { mode: STAGE_KEY_MODE[stage] },
      stage,
    }).map(({ name, operationId }) => ({ name, operationId }));
  return {
    idPrefixes: (Object.entries(ID_KIND_NAMES) as [IdKind, string | null][]).flatMap(([kind, names]) =>
      names === null ? [] : [{ prefix: ID_PREFIXES[kind], names }],
    ),
    prefixOf: { ...ID_PREFIXES },
    idExample: publicIdExample('vehicle'),
    keyPrefixes: { ...KEY_PREFIX },
    fleetHeader: FLEET_HEADER,
    pageLimit: { ...PAGE_LIMIT },
    idempotencyKeyMaxLength: IDEMPOTENCY_KEY_MAX_LENGTH,
    idempotentReplayedHeader: IDEMPOTENT_REPLAYED_HEADER,
    fieldErrorMembers: Object.keys(fieldErrorSchema._zod.def.shape),
    rateWindowSeconds: RATE_WINDOW_SECONDS,
    eventTypes: EVENT_CATALOG.map(({ type }) => type),
    webhookSecretPrefix: WEBHOOK_SECRET_PREFIX,
    webhookTimeoutSeconds: WEBHOOK_TIMEOUT_MS / 1000,
    signatureToleranceSeconds: DEFAULT_TOLERANCE_SECONDS,
    deliveryAttempts: MAX_DELIVERY_ATTEMPTS,
    deliveryRetryHours:
      Math.round(RETRY_DELAYS_SECONDS.reduce((sum, seconds) => sum + seconds, 0) / 360) / 10,
    simulatedTrucks: [...SIM_EXTERNAL_REFS],
    maxAdvanceMinutes: MAX_ADVANCE_MINUTES,
    unknownToolErrorCode: ErrorCode.InvalidParams,
    tools: { prod: toolsOn('prod'), sandbox: toolsOn('sandbox') },
    toolArguments: { fleet: FLEET_ARGUMENT, idempotency: IDEMPOTENCY_ARGUMENT },
    sandboxTools: sandboxToolOperations.map((operation) => mcpTools[operation].tool),
    notTools: { ...hiddenFromMcp },
  };
}
