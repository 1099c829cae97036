import * as z from 'zod/mini';
import type { RouteDefinition } from '#shared/platform/http/route-definition.ts';
import type { McpToolEntry } from '../api/mcp-tools.ts';

/** The MCP tool annotations every tool carries (docs/mcp.md). */
export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
}

type JsonSchema = Record<string, unknown>;

export interface ToolInputSchema {
  type: 'object';
  properties: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties: false;
  $defs?: Record<string, JsonSchema>;
}

/** What tools/list shows of a tool, and the operation a call runs: plain JSON. */
export interface ListedTool {
  name: string;
  description: string;
  inputSchema: ToolInputSchema;
  annotations: ToolAnnotations;
  operationId: string;
}

/** One generated tool: what tools/list shows, and the route a call runs. */
export interface GeneratedTool extends ListedTool {
  route: RouteDefinition;
}

/** The argument that selects a partner key's fleet (it becomes the SVC-Fleet header). */
export const FLEET_ARGUMENT = 'fleet_id';
/** The argument that carries an Idempotency-Key on the idempotent POSTs; never made up when absent (tool-call.ts). */
export const IDEMPOTENCY_ARGUMENT = 'idempotency_key';

/** Action paths whose effect cannot be undone by calling again: they end or wipe something. */
const DESTRUCTIVE_ACTIONS = new Set(['cancel', 'revoke', 'deactivate', 'reset']);

/**
 * The annotations follow from what the operation does, never from a hand-kept list:
 * - GET reads, and searches sent as POST (`readOnly` on the route): `readOnlyHint`.
 * - DELETE, and the cancel/revoke/deactivate/reset actions, end or wipe something: `destructiveHint`.
 * - Calling again with the same arguments changes nothing more: reads, PATCH (sets fields to given
 *   values), DELETE (gone stays gone), and the POSTs that take an Idempotency-Key (same key, same
 *   answer): `idempotentHint`.
 */
export function annotationsFor(
  route: Pick<RouteDefinition, 'method' | 'path' | 'idempotent' | 'readOnly'>,
): ToolAnnotations {
  const action = route.path.split('/').at(-1) ?? '';
  const reads = route.method === 'GET' || route.readOnly === true;
  return {
    readOnlyHint: reads,
    destructiveHint:
      route.method === 'DELETE' || (route.method === 'POST' && DESTRUCTIVE_ACTIONS.has(action)),
    idempotentHint: reads || route.method === 'PATCH' || route.method === 'DELETE' || route.idempotent,
  };
}

/** Whether the route's query already takes `fleet_id` (integration health): then it is a query argument. */
function queryTakesFleetId(route: RouteDefinition): boolean {
  return route.request.query !== undefined && FLEET_ARGUMENT in route.request.query._zod.def.shape;
}

/**
 * A query number is read from its text by a transform (shared/api/query-numbers.ts), and
 * zod leaves the default of a transforming schema out of an input schema; an argument left out
 * still takes it, so the tool says so.
 */
function keepDefault({ zodSchema, jsonSchema }: { zodSchema: z.core.$ZodType; jsonSchema: JsonSchema }) {
  const def = zodSchema._zod.def;
  if (def.type === 'default' && jsonSchema.default === undefined) {
    jsonSchema.default = (def as z.core.$ZodDefaultDef).defaultValue as JsonSchema['default'];
  }
}

/** A zod schema as a plain JSON Schema object, its top-level `$ref` (named schemas) resolved. */
function jsonSchemaOf(schema: z.core.$ZodType): { root: JsonSchema; defs: Record<string, JsonSchema> } {
  const {
    $schema: _,
    $defs,
    ...rest
  } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any', override: keepDefault }) as JsonSchema & {
    $defs?: Record<string, JsonSchema>;
  };
  const defs = $defs ?? {};
  const ref = typeof rest.$ref === 'string' ? rest.$ref.replace('#/$defs/', '') : undefined;
  return { root: ref ? { ...(defs[ref] as JsonSchema) } : rest, defs };
}

/**
 * The tool's input: path parameters, query and body merged into one object (a name used twice is
 * a mistake in the route table and throws), plus `fleet_id` on fleet routes and
 * `idempotency_key` on idempotent ones.
 */
export function inputSchemaFor(route: RouteDefinition): ToolInputSchema {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  let $defs: Record<string, JsonSchema> = {};
  const add = (name: string, schema: JsonSchema, isRequired: boolean, from: string) => {
    if (name in properties) {
      throw new Error(`${route.operationId}: the ${from} field ${name} clashes with another tool argument`);
    }
    properties[name] = schema;
    if (isRequired) required.push(name);
  };
  const body = route.request.publishedBody ?? route.request.body;
  const parts = [
    ['path parameter', route.request.params],
    ['query', route.request.query],
    ['body', body],
  ] as const;
  for (const [from, schema] of parts) {
    if (!schema) continue;
    const { root, defs } = jsonSchemaOf(schema);
    $defs = { ...$defs, ...defs };
    if (root.type !== 'object' || typeof root.properties !== 'object') {
      throw new Error(
        `${route.operationId}: the ${from} is not a JSON object, so it cannot be tool arguments`,
      );
    }
    const requiredHere = new Set((root.required as string[] | undefined) ?? []);
    const bodyOptional = from === 'body' && route.request.bodyRequired === false;
    for (const [name, property] of Object.entries(root.properties as Record<string, JsonSchema>)) {
      add(name, property, requiredHere.has(name) && !bodyOptional, from);
    }
  }
  if ((route.access === 'fleet' || route.access === 'fleetOrPartner') && !queryTakesFleetId(route)) {
    add(
      FLEET_ARGUMENT,
      {
        type: 'string',
        description:
          route.access === 'fleet'
            ? 'Partner keys: the fleet to act on (sent as SVC-Fleet). Company keys leave it out.'
            : 'Partner keys: the fleet to act on (sent as SVC-Fleet); left out, the call acts at partner level. Company keys leave it out.',
      },
      false,
      'fleet selection',
    );
  }
  if (route.idempotent) {
    add(
      IDEMPOTENCY_ARGUMENT,
      {
        type: 'string',
        minLength: 1,
        maxLength: 64,
        description:
          'Idempotency-Key (required): a value unique to this operation; send the same value when retrying, so the call runs once.',
      },
      true,
      'idempotency',
    );
  }
  return {
    type: 'object',
    properties,
    ...(required.length ? { required } : {}),
    additionalProperties: false,
    ...(Object.keys($defs).length ? { $defs } : {}),
  };
}

/** One tool per curated route, in route-table order. */
export function generateTools(
  routes: Readonly<Record<string, RouteDefinition>>,
  table: Readonly<Record<string, McpToolEntry>>,
): GeneratedTool[] {
  return Object.entries(routes).flatMap(([operation, route]) => {
    const entry = table[operation];
    if (!entry) return [];
    return [
      {
        name: entry.tool,
        description: `${entry.description} (${route.method} ${route.path}${route.scope ? `; scope ${route.scope}` : ''})`,
        inputSchema: inputSchemaFor(route),
        annotations: annotationsFor(route),
        operationId: operation,
        route,
      },
    ];
  });
}
