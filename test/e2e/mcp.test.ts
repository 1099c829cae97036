import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { renderLlmsGuide } from '#shared/agents/llms/guide.ts';
import { loadCredentials } from '../support/credentials.ts';
import { api } from '../support/http-client.ts';

/**
 * The MCP server over HTTP with the SDK's own client and Streamable HTTP transport, as an agent
 * would connect: initialize, list, calls that are API calls (scopes, fleet selection), the
 * protocol error for an unknown tool; and the guide for language models at both paths.
 */
const credentials = loadCredentials();
const clients: Client[] = [];

async function connect(key: string, baseUrl = credentials.base_url): Promise<Client> {
  const client = new Client({ name: 'e2e', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL('/v1/mcp', baseUrl), {
    requestInit: { headers: { Authorization: `Bearer ${key}` } },
  });
  await client.connect(transport);
  clients.push(client);
  return client;
}

afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
});

type ToolResult = {
  isError?: boolean;
  structuredContent?: Record<string, unknown>;
  content: { text: string }[];
};
const call = async (client: Client, name: string, args: Record<string, unknown> = {}) =>
  (await client.callTool({ name, arguments: args })) as ToolResult;

describe('POST /v1/mcp', () => {
  it('initializes statelessly and lists tools that all carry the three annotations', async () => {
    const client = await connect(credentials.keys.company_live);
    expect(client.getServerVersion()?.name).toBe('fleet-fuel-guidance');
    expect(client.getServerCapabilities()?.tools).toBeDefined();
    const { tools } = await client.listTools();
    expect(tools.length).toBeGreaterThan(40);
    for (const tool of tools) {
      expect(tool.annotations, tool.name).toEqual({
        readOnlyHint: expect.any(Boolean),
        destructiveHint: expect.any(Boolean),
        idempotentHint: expect.any(Boolean),
      });
      expect(tool.inputSchema.type).toBe('object');
    }
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    expect(byName.get('list_vehicles')?.annotations?.readOnlyHint).toBe(true);
    expect(byName.get('cancel_guidance')?.annotations?.destructiveHint).toBe(true);
    expect(byName.get('create_trip')?.annotations?.idempotentHint).toBe(true);
    expect(byName.get('create_trip')?.inputSchema.properties).toHaveProperty('idempotency_key');
    // Not on production, and not for live keys: the simulator's tools.
    for (const name of ['reset', 'scenario', 'simulation', 'advance'])
      expect(byName.has(name), name).toBe(false);
  });

  it('lists the sandbox tools to a test key on the sandbox stage, and runs them', async () => {
    const client = await connect(credentials.keys.company_test, credentials.sandbox_base_url);
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['reset', 'scenario', 'simulation', 'advance']));
    const snapshot = await call(client, 'simulation');
    expect(snapshot.isError).toBeFalsy();
    expect(snapshot.structuredContent).toMatchObject({
      object: 'sandbox_simulation',
      fleet_id: credentials.fleets.company_sandbox,
    });
  });

  it('runs a read tool and a write tool as the API calls they are', async () => {
    const client = await connect(credentials.keys.company_live);
    const ref = `MCP-${Date.now().toString(36)}`;
    const created = await call(client, 'create_vehicle', { external_ref: ref, name: 'Made by an agent' });
    expect(created.isError, created.content[0]?.text).toBeFalsy();
    expect(created.structuredContent).toMatchObject({ external_ref: ref, name: 'Made by an agent' });
    const id = created.structuredContent?.id as string;
    expect(id).toMatch(/^veh_/);

    // The same resource over plain HTTP: the tool wrote through the API.
    const http = await api(credentials.base_url).get(`/v1/vehicles/${id}`, {
      key: credentials.keys.company_live,
    });
    expect(http.json).toEqual(created.structuredContent);

    const read = await call(client, 'get_vehicle', { id: `ext:${ref}` });
    expect(read.structuredContent).toEqual(created.structuredContent);
    const listed = await call(client, 'list_vehicles', { limit: 100 });
    expect(listed.structuredContent).toHaveProperty('data');
    expect(JSON.parse(listed.content[0]?.text ?? '{}')).toEqual(listed.structuredContent);
  });

  it('runs an idempotent tool with the caller’s Idempotency-Key: a retry replays the first answer', async () => {
    const client = await connect(credentials.keys.company_live);
    const plan = {
      origin: { latitude: 41.8781, longitude: -87.6298, name: 'Chicago' },
      destination: { latitude: 39.7392, longitude: -104.9903, name: 'Denver' },
      tank_size_gallons: 200,
      estimated_mpg: 6.5,
      fuel_level_percent: 30,
      min_arrival_fuel_percent: 20,
    };
    const idempotency_key = `mcp-${Date.now().toString(36)}`;
    const first = await call(client, 'plan_route', { ...plan, idempotency_key });
    expect(first.isError, first.content[0]?.text).toBeFalsy();
    const again = await call(client, 'plan_route', { ...plan, idempotency_key });
    expect(again.structuredContent?.id).toBe(first.structuredContent?.id);
    // Without a key the route refuses, as over HTTP: a host's automatic retry can never run it twice.
    const keyless = await call(client, 'plan_route', plan);
    expect(keyless.isError).toBe(true);
    expect(keyless.structuredContent).toMatchObject({
      status: 400,
      code: 'idempotency_key_required',
      detail: 'This tool needs the idempotency_key argument.',
      hint: expect.stringContaining('pass idempotency_key'),
    });
    expect(keyless.content[0]?.text).not.toMatch(/header/i);
    const reuse = await call(client, 'plan_route', {
      ...plan,
      min_arrival_fuel_percent: 25,
      idempotency_key,
    });
    expect(reuse.structuredContent).toMatchObject({
      status: 422,
      code: 'idempotency_key_reuse',
      detail: 'This idempotency_key was already used with different arguments.',
    });
  });

  it('answers a problem as isError with its code, detail and hint', async () => {
    const readonly = await connect(credentials.keys.company_readonly);
    const refused = await call(readonly, 'list_vehicles');
    expect(refused.isError).toBe(true);
    expect(refused.structuredContent).toMatchObject({
      status: 403,
      code: 'insufficient_scope',
      required_scope: 'vehicles:manage',
      detail: expect.stringContaining('vehicles:manage'),
      hint: expect.any(String),
    });

    const live = await connect(credentials.keys.company_live);
    const invalid = await call(live, 'create_vehicle', { external_ref: '' });
    expect(invalid.isError).toBe(true);
    expect(invalid.structuredContent).toMatchObject({ status: 422, code: 'validation_failed' });
    expect(invalid.structuredContent?.errors).toEqual(
      expect.arrayContaining([expect.objectContaining({ field: 'external_ref' })]),
    );
  });

  it('selects a partner key’s fleet with the fleet_id argument', async () => {
    const client = await connect(credentials.keys.partner_live);
    const fleetId = credentials.fleets.partner_granted[0] as string;
    const listed = await call(client, 'list_vehicles', { fleet_id: fleetId });
    expect(listed.isError, listed.content[0]?.text).toBeFalsy();
    const missing = await call(client, 'list_vehicles');
    expect(missing.structuredContent).toMatchObject({ status: 400, code: 'fleet_header_required' });
  });

  it('answers an unknown tool with the JSON-RPC error -32602, not a tool result', async () => {
    const client = await connect(credentials.keys.company_live);
    const error = await client.callTool({ name: 'no_such_tool', arguments: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(ErrorCode.InvalidParams);
    expect((error as McpError).code).toBe(-32602);
  });

  it('needs a key, and answers GET and DELETE 405 with Allow (a stateless server has no stream or session)', async () => {
    const http = api(credentials.base_url);
    const anonymous = await http.post('/v1/mcp', {
      body: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      headers: { Accept: 'application/json, text/event-stream' },
    });
    expect(anonymous.status).toBe(401);
    expect(anonymous.json.code).toBe('missing_api_key');
    // Refusals before and by the transport are the API's problems, with something to act on.
    const notJsonRpc = await http.post('/v1/mcp', {
      key: credentials.keys.company_live,
      body: { method: 'tools/list' },
      headers: { Accept: 'application/json, text/event-stream' },
    });
    expect(notJsonRpc.status).toBe(422);
    expect(notJsonRpc.json).toMatchObject({ code: 'validation_failed' });
    const noStreamAccept = await http.post('/v1/mcp', {
      key: credentials.keys.company_live,
      body: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      headers: { Accept: 'application/json' },
    });
    expect(noStreamAccept.status).toBe(422);
    expect(noStreamAccept.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(noStreamAccept.json).toMatchObject({
      code: 'validation_failed',
      hint: expect.stringContaining('Accept'),
    });
    for (const method of ['GET', 'DELETE'] as const) {
      const response = await http.call(method, '/v1/mcp', { key: credentials.keys.company_live });
      expect(response.status, method).toBe(405);
      expect(response.headers.get('allow')).toContain('POST');
    }
  });
});

describe('the guide for language models', () => {
  it.each(['/llms.txt', '/v1/llms.txt'])(
    'is served at %s, anonymously, as the generator renders it',
    async (path) => {
      const response = await api(credentials.base_url).get(path);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/markdown/);
      const baseUrl = new URL(credentials.base_url).origin;
      expect(response.text).toBe(renderLlmsGuide({ baseUrl, stage: 'prod' }));
    },
  );

  it.each([
    ['prod', credentials.base_url, credentials.keys.company_live],
    ['sandbox', credentials.sandbox_base_url, credentials.keys.company_test],
  ] as const)(
    'on %s, names the tools tools/list shows there, and counts them',
    async (_stage, baseUrl, key) => {
      const guide = (await api(baseUrl).get('/llms.txt')).text;
      const client = await connect(key, baseUrl);
      const names = (await client.listTools()).tools.map((tool) => tool.name);

      expect(guide).toContain(`\`tools/list\` shows ${names.length} tools`);
      const operations = guide.slice(
        guide.indexOf('## Operations\n'),
        guide.indexOf('## Operations that are not MCP tools'),
      );
      const claimed = [...operations.matchAll(/; tool `(\w+)`\)$/gm)].map(([, name]) => name);
      expect(claimed.sort()).toEqual(names.sort());
      expect(guide).toMatch(/^- `POST \/v1\/locations`: .*; not a tool\)$/m);
    },
  );
});
