import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { routeHandlers } from '#functions/http/agents/route-handlers.ts';
import { hiddenFromMcp, mcpTools, sandboxToolOperations } from '#shared/agents/api/mcp-tools.ts';
import { visibleTools } from '#shared/agents/mcp/server.ts';
import { annotationsFor, generateTools, inputSchemaFor } from '#shared/agents/mcp/tools.ts';
import { routes } from '#shared/api/route-table.ts';
import type { RouteDefinition } from '#shared/platform/http/route-definition.ts';

const entries = Object.entries(routes) as [string, RouteDefinition][];
const tools = generateTools(routes, mcpTools);

describe('the MCP tool table', () => {
  it.each(entries)('considers %s: a tool or a stated reason, never both', (operation) => {
    const exposed = operation in mcpTools;
    const hidden = operation in hiddenFromMcp;
    expect(exposed !== hidden, `${operation} must be in exactly one of mcpTools and hiddenFromMcp`).toBe(
      true,
    );
    if (hidden) expect(hiddenFromMcp[operation as keyof typeof hiddenFromMcp].length).toBeGreaterThan(10);
  });

  it('names only routes that exist, with unique snake_case tool names', () => {
    for (const operation of [...Object.keys(mcpTools), ...Object.keys(hiddenFromMcp)]) {
      expect(routes, operation).toHaveProperty(operation);
    }
    const names = tools.map((tool) => tool.name);
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) expect(name).toMatch(/^[a-z][a-z0-9_]{0,63}$/);
  });

  it('keeps the operator-free, owner-only and anonymous routes out', () => {
    const exposedRoutes = tools.map((tool) => tool.route);
    expect(exposedRoutes.filter((route) => route.access === 'anonymous')).toEqual([]);
    expect(exposedRoutes.filter((route) => route.scope === 'keys:manage')).toEqual([]);
    expect(exposedRoutes.some((route) => route.path.startsWith('/admin'))).toBe(false);
  });

  it('names the four sandbox tools', () => {
    expect(sandboxToolOperations.map((operation) => mcpTools[operation].tool).sort()).toEqual([
      'advance',
      'reset',
      'scenario',
      'simulation',
    ]);
  });

  it.each(Object.keys(mcpTools))(
    'loads the handler module %s’s route names',
    async (operation) => {
      const route = routes[operation as keyof typeof routes];
      const viaTable = await routeHandlers[operation as keyof typeof routeHandlers]();
      const viaRoute = await import(pathToFileURL(resolve(route.handler)).href);
      expect(viaTable).toBe(viaRoute);
      expect(route.operationId).toBe(operation);
    },
    30_000,
  );
});

describe('annotations by rule', () => {
  it.each(tools.map((tool) => [tool.name, tool] as const))(
    '%s carries all three, as its route implies',
    (_n, tool) => {
      const { method, path, idempotent, readOnly } = tool.route;
      const action = path.split('/').at(-1);
      expect(Object.keys(tool.annotations).sort()).toEqual([
        'destructiveHint',
        'idempotentHint',
        'readOnlyHint',
      ]);
      expect(tool.annotations.readOnlyHint).toBe(method === 'GET' || readOnly === true);
      expect(tool.annotations.destructiveHint).toBe(
        method === 'DELETE' || ['cancel', 'revoke', 'deactivate', 'reset'].includes(action ?? ''),
      );
      expect(tool.annotations.idempotentHint).toBe(method !== 'POST' || idempotent || readOnly === true);
    },
  );

  it('marks the operations the issue names as it says', () => {
    const byName = new Map(tools.map((tool) => [tool.name, tool.annotations]));
    expect(byName.get('list_vehicles')).toEqual({
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
    });
    expect(byName.get('cancel_guidance')).toEqual({
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: true,
    });
    expect(byName.get('cancel_trip')).toEqual({
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
    });
    expect(byName.get('deactivate_vehicle')?.destructiveHint).toBe(true);
    expect(byName.get('create_trip')).toEqual({
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: true,
    });
    expect(byName.get('update_vehicle')).toEqual({
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: true,
    });
    expect(byName.get('start_trip')).toEqual({
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
    });
  });

  it('reads the rule from the route, not the name', () => {
    expect(annotationsFor({ method: 'POST', path: '/v1/things/{id}/revoke', idempotent: false })).toEqual({
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
    });
    expect(annotationsFor({ method: 'POST', path: '/v1/things', idempotent: true }).idempotentHint).toBe(
      true,
    );
    // A search sent as POST is a read.
    expect(annotationsFor({ method: 'POST', path: '/v1/search', idempotent: false, readOnly: true })).toEqual(
      {
        readOnlyHint: true,
        destructiveHint: false,
        idempotentHint: true,
      },
    );
    expect(annotationsFor(routes.listStationsAlongRoute).readOnlyHint).toBe(true);
  });
});

describe('input schemas', () => {
  it('merges path parameters, query and body into one object, required where the API requires', () => {
    const skip = inputSchemaFor(routes.skipGuidanceStop);
    expect(skip.type).toBe('object');
    expect(Object.keys(skip.properties).sort()).toEqual(['fleet_id', 'id', 'reason', 'stopId']);
    expect(skip.required?.sort()).toEqual(['id', 'stopId']);
    expect(skip.additionalProperties).toBe(false);

    const list = inputSchemaFor(routes.listTrips);
    expect(Object.keys(list.properties)).toEqual(
      expect.arrayContaining(['status', 'vehicle_id', 'cursor', 'limit', 'fleet_id']),
    );
    expect(list.required).toBeUndefined();
  });

  it('adds idempotency_key only to the idempotent POSTs, and fleet_id only to fleet routes', () => {
    for (const tool of tools) {
      expect('idempotency_key' in tool.inputSchema.properties, tool.name).toBe(tool.route.idempotent);
      const fleetScoped = tool.route.access === 'fleet' || tool.route.access === 'fleetOrPartner';
      expect('fleet_id' in tool.inputSchema.properties, tool.name).toBe(fleetScoped);
    }
    // Required: a key made up per call would make a host's automatic retry run the call twice.
    expect(inputSchemaFor(routes.createTrip).required).toContain('idempotency_key');
  });

  it('keeps the integration health query’s own fleet_id rather than adding a second', () => {
    const health = inputSchemaFor(routes.getIntegrationHealth);
    expect(health.properties.fleet_id).toEqual(expect.objectContaining({ type: 'string' }));
    expect(health.properties.fleet_id?.description).toMatch(/^The fleet to score/);
  });

  it('resolves named body schemas in place and keeps their definitions', () => {
    const trip = inputSchemaFor(routes.createTrip);
    expect(trip.properties).toHaveProperty('origin');
    expect(trip.properties).toHaveProperty('auto_optimize');
    expect(JSON.stringify(trip)).not.toContain('"$ref":"#/$defs/CreateTripRequest"');
  });

  it('refuses a route whose parts would clash as arguments', () => {
    const clash = {
      ...routes.skipGuidanceStop,
      request: { ...routes.skipGuidanceStop.request, query: routes.skipGuidanceStop.request.params },
    };
    expect(() => inputSchemaFor(clash as RouteDefinition)).toThrow(/clashes/);
  });
});

describe('sandbox tools', () => {
  const exchange = { tools, sandboxTools: new Set(['reset', 'scenario', 'simulation', 'advance']) };
  const names = (mode: 'live' | 'test', stage: 'prod' | 'sandbox') =>
    visibleTools({ ...exchange, principal: { mode }, stage }).map((tool) => tool.name);

  it('are listed for test keys on the sandbox stage only', () => {
    expect(names('test', 'sandbox')).toEqual(
      expect.arrayContaining(['reset', 'scenario', 'simulation', 'advance']),
    );
    for (const [mode, stage] of [
      ['live', 'prod'],
      ['test', 'prod'],
      ['live', 'sandbox'],
    ] as const) {
      expect(names(mode, stage).filter((name) => exchange.sandboxTools.has(name))).toEqual([]);
      expect(names(mode, stage)).toContain('list_vehicles');
    }
  });
});
