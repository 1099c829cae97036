import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Metafile } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handler as getLlmsTxtFromSource } from '#functions/http/agents/get-llms-txt.ts';
import { handler as getOpenApiFromSource } from '#functions/http/discovery/get-open-api.ts';
import { bundleFunctions, type FunctionEntry, repoRoot } from '#scripts/bundle-functions.ts';
import { accountOperations } from '#shared/accounts/api/operations.ts';
import { adminOperations } from '#shared/admin/api/operations.ts';
import { agentOperations } from '#shared/agents/api/operations.ts';
import { readListedTools } from '#shared/agents/mcp/listed-tools.ts';
import { PUBLISHED_DOCUMENTS } from '#shared/api/published-documents.ts';
import { fallbackOperation } from '#shared/api/route-table.ts';
import { discoveryOperations } from '#shared/discovery/api/operations.ts';
import { GEO_DATA_FILES } from '#shared/geo/data-files.ts';
import type { HttpResponse } from '#shared/platform/http/types.ts';
import { tripOperations } from '#shared/trips/api/operations.ts';
import { httpEvent, lambdaContext } from '../fixtures.ts';
import { handler as dynamodbProbeFromSource } from './dynamodb-probe.ts';
import { handler as geoProbeFromSource } from './geo-probe.ts';

/*
 * What goes into a Lambda bundle (docs/cold-starts.md), checked on the bundles themselves: each
 * function carries only what its route uses, and still loads and answers without AWS credentials
 * files or network.
 */

const workDir = mkdtempSync(join(tmpdir(), 'function-bundles-'));
const entry = (route: { operationId: string; handler: string }): FunctionEntry => ({
  name: route.operationId,
  handler: route.handler,
});
const lambdaEnv = {
  TABLE_NAME: 'bundle-test',
  CONTROL_TABLE_NAME: 'bundle-test-control',
  CURSOR_SIGNING_KEY: 'k',
  // What Lambda puts in the environment for the execution role (the probe signs a request).
  AWS_ACCESS_KEY_ID: 'AKIDBUNDLETEST',
  AWS_SECRET_ACCESS_KEY: 'bundle-test-secret',
};
const envBefore = Object.fromEntries(Object.keys(lambdaEnv).map((name) => [name, process.env[name]]));

let outdir: string;
let metafile: Metafile;
beforeAll(async () => {
  const result = await bundleFunctions({
    outdir: join(workDir, 'functions'),
    entries: [
      entry(accountOperations.getMe),
      entry(tripOperations.createTrip),
      entry(fallbackOperation),
      entry(discoveryOperations.getOpenApi),
      entry(agentOperations.getLlmsTxt),
      entry(adminOperations.listPlans),
      { name: 'geoProbe', handler: 'test/unit/bundle/geo-probe.ts' },
      { name: 'dynamodbProbe', handler: 'test/unit/bundle/dynamodb-probe.ts' },
      { name: 'priceFeedImport', handler: 'functions/jobs/price-feed-import.ts' },
    ],
  });
  outdir = result.outdir;
  metafile = JSON.parse(readFileSync(result.metafilePath, 'utf8')) as Metafile;
  Object.assign(process.env, lambdaEnv);
  // Four functions in three esbuild runs (createTrip is rebuilt with its lazy chunks): a few seconds
  // alone, several times that on a busy machine.
}, 90_000);
afterAll(() => {
  rmSync(workDir, { recursive: true, force: true });
  for (const [name, value] of Object.entries(envBefore)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

/** The source files that contribute code to one function's bundle. */
function bundledInputs(name: string): string[] {
  const output =
    metafile.outputs[Object.keys(metafile.outputs).find((file) => file.endsWith(`${name}/index.mjs`)) ?? ''];
  return Object.entries(output?.inputs ?? {})
    .filter(([, input]) => input.bytesInOutput > 0)
    .map(([file]) => file);
}

async function bundled(name: string) {
  return (await import(pathToFileURL(join(outdir, name, 'index.mjs')).href)) as {
    handler: (event: unknown, context: unknown) => Promise<HttpResponse>;
  };
}

describe('a route function bundle', () => {
  it('carries its own route definitions, not the whole route table', () => {
    // Arrange
    const inputs = bundledInputs('getMe');

    // Act
    const routeFiles = inputs.filter((file) =>
      /^shared\/(?:[a-z-]+\/)?api\/(?:[a-z-]*operations|route-table)\.ts$/.test(file),
    );

    // Assess
    expect(routeFiles).toEqual(['shared/accounts/api/operations.ts']);
  });

  it('calls DynamoDB through the whole client stack without the endpoint-discovery cache, as from source', async () => {
    // Arrange
    const { handler } = (await import(pathToFileURL(join(outdir, 'dynamodbProbe', 'index.mjs')).href)) as {
      handler: typeof dynamodbProbeFromSource;
    };

    // Act
    const fromBundle = await handler();

    // Assess
    expect(
      bundledInputs('getMe').filter((file) => /mnemonist|endpoint-cache[\\/]dist-es[\\/]Endpoint/.test(file)),
    ).toEqual([]);
    expect(fromBundle).toEqual(await dynamodbProbeFromSource());
    expect(fromBundle).toEqual({
      hostname: 'dynamodb.us-east-1.amazonaws.com',
      target: 'DynamoDB_20120810.GetItem',
      item: { pk: { S: 'FLEET#1' }, n: { N: '42' } },
    });
  });

  it("carries its own route's definition, not its feature's other routes", () => {
    // Arrange
    const code = readFileSync(join(outdir, 'createTrip', 'index.mjs'), 'utf8');

    // Act
    // A route's summary stands in its definition only (its handler path is built by the route group).
    const summaries = [tripOperations.createTrip, tripOperations.deleteTrip, tripOperations.listTrips].map(
      (route) => code.includes(route.summary),
    );

    // Assess
    expect(summaries).toEqual([true, false, false]);
  });

  it("carries its own operator route's definition, not the operator route table", () => {
    // Arrange
    const code = readFileSync(join(outdir, 'listPlans', 'index.mjs'), 'utf8');

    // Act
    const summaries = [adminOperations.listPlans, adminOperations.putPlan, adminOperations.createPartner].map(
      (route) => code.includes(route.summary),
    );

    // Assess
    expect(summaries).toEqual([true, false, false]);
  });

  it('carries the schemas its route reads, not the rest of the schema modules it imports', () => {
    // Arrange
    const code = readFileSync(join(outdir, 'createTrip', 'index.mjs'), 'utf8');

    // Act: one message of createTrip's own body, one of the trip list's query (same module), one
    // of the time-zone field of shared/api/common-schemas.ts (a module createTrip imports)
    const messages = [
      'must be after planned_start_at',
      'must be polyline (the only thing a list can include)',
      'must be an IANA time zone name',
    ].map((message) => code.includes(message));

    // Assess
    expect(messages).toEqual([true, false, false]);
  });

  it('records events without bundling the webhook sender or its address guard (only the dispatcher sends)', () => {
    // Arrange
    const inputs = bundledInputs('createTrip');

    // Act
    const senderFiles = inputs.filter((file) => /webhook-sender|url-guard|ipaddr\.js/.test(file));

    // Assess
    expect(inputs).toContain('shared/events/store/events.ts');
    expect(senderFiles).toEqual([]);
  });

  it('resolves credentials from the environment only, without the SSO, ini or STS providers', () => {
    // Arrange
    const inputs = bundledInputs('getMe');

    // Act
    const providers = inputs.filter((file) =>
      /@aws-sdk[\\/](credential-provider-|nested-clients)/.test(file),
    );

    // Assess
    expect(providers.every((file) => file.includes('credential-provider-env'))).toBe(true);
    expect(providers.length).toBeGreaterThan(0);
  });

  it('carries Powertools idempotency only when its route is idempotent', () => {
    // Arrange
    const isIdempotency = (file: string) => file.includes('@aws-lambda-powertools/idempotency');

    // Act
    const inGetMe = bundledInputs('getMe').some(isIdempotency);
    const inCreateTrip = bundledInputs('createTrip').some(isIdempotency);

    // Assess
    expect([inGetMe, inCreateTrip]).toEqual([false, true]);
  });

  it("replaces zod's JSON Schema converters by stubs where nothing converts schemas", () => {
    // Arrange
    const [file, bundledProcessors] = Object.entries(metafile.inputs).find(([path]) =>
      path.endsWith('zod/v4/core/json-schema-processors.js'),
    ) ?? ['', undefined];

    // Act
    const stubBytes = bundledProcessors?.bytes ?? Number.NaN;

    // Assess
    expect(stubBytes).toBeLessThan(statSync(resolve(repoRoot, file)).size / 4);
  });

  it('loads and answers a request without a key with 401 missing_api_key, as from source', async () => {
    // Arrange
    const { handler } = await bundled('getMe');

    // Act
    const response = await handler(httpEvent({ method: 'GET', path: '/v1/me' }), lambdaContext());

    // Assess
    expect(response.statusCode).toBe(401);
    expect(JSON.parse(response.body ?? '{}').code).toBe('missing_api_key');
  });

  it('runs an idempotent route through the same chain (the key is checked before the idempotency header)', async () => {
    // Arrange
    const { handler } = await bundled('createTrip');

    // Act
    const response = await handler(
      httpEvent({ method: 'POST', path: '/v1/trips', body: '{}' }),
      lambdaContext(),
    );

    // Assess
    expect(response.statusCode).toBe(401);
    expect(JSON.parse(response.body ?? '{}').code).toBe('missing_api_key');
  });

  it('answers an unknown route with 404 and a known path with a wrong method with 405 and Allow', async () => {
    // Arrange
    const { handler } = await bundled('routeNotFound');

    // Act
    const unknown = await handler(httpEvent({ method: 'GET', path: '/v1/nowhere' }), lambdaContext());
    const wrongMethod = await handler(httpEvent({ method: 'PATCH', path: '/v1/me' }), lambdaContext());

    // Assess
    expect([unknown.statusCode, JSON.parse(unknown.body ?? '{}').code]).toEqual([404, 'resource_not_found']);
    expect([wrongMethod.statusCode, wrongMethod.headers?.Allow]).toEqual([405, 'GET, OPTIONS']);
  });
});

describe('a planning function bundle', () => {
  const dataFiles = Object.values(GEO_DATA_FILES).map(({ name }) => name);

  it('reads the highway graph and the state shapes from files beside it, not from its code', () => {
    // Arrange
    const inputs = bundledInputs('createTrip');

    // Act
    const importedData = inputs.filter((file) => /highway-graph\.json$|us-atlas/.test(file));
    const beside = dataFiles.map((name) => existsSync(join(outdir, 'createTrip', name)));
    const besideGetMe = dataFiles.map((name) => existsSync(join(outdir, 'getMe', name)));

    // Assess
    expect(importedData).toEqual([]);
    expect(beside).toEqual([true, true]);
    expect(besideGetMe).toEqual([false, false]);
  });

  it('answers from the copied data files as from source', async () => {
    // Arrange
    const { handler } = (await import(pathToFileURL(join(outdir, 'geoProbe', 'index.mjs')).href)) as {
      handler: typeof geoProbeFromSource;
    };

    // Act
    const fromBundle = await handler();

    // Assess
    expect(fromBundle).toEqual(await geoProbeFromSource());
    expect([fromBundle.denton, fromBundle.southOfArdmore]).toEqual(['TX', 'OK']);
  });

  it('loads the Amazon Location client only from a lazy chunk, not at a cold start', () => {
    // Arrange
    const isLocationClient = (file: string) => file.includes('@aws-sdk/client-geo-routes');
    const chunks = Object.entries(metafile.outputs).filter(([file]) => file.includes('/createTrip/chunks/'));

    // Act
    const inEntry = bundledInputs('createTrip').some(isLocationClient);
    const inChunks = chunks.some(([, output]) =>
      Object.entries(output.inputs).some(
        ([file, input]) => isLocationClient(file) && input.bytesInOutput > 0,
      ),
    );

    // Assess
    expect([inEntry, inChunks]).toEqual([false, true]);
  });
});

describe('the OpenAPI document function bundle', () => {
  it('serves the document from the file beside it, the same bytes as from source', async () => {
    // Arrange
    const { handler } = await bundled('getOpenApi');
    const request = () => httpEvent({ method: 'GET', path: '/v1/openapi.json' });

    // Act
    const fromBundle = await handler(request(), lambdaContext());
    const fromSource = await getOpenApiFromSource(request(), lambdaContext());

    // Assess
    expect(bundledInputs('getOpenApi').filter((file) => file.endsWith('openapi.json'))).toEqual([]);
    expect(readdirSync(join(outdir, 'getOpenApi')).sort()).toEqual([
      'index.mjs',
      PUBLISHED_DOCUMENTS.openApi.name,
    ]);
    expect(fromBundle.statusCode).toBe(200);
    expect(fromBundle.body).toBe(fromSource.body);
  });
});

describe('the price feed import function bundle', () => {
  it("loads S3's client (its event-stream config bundled, the codec left out) and answers an event", async () => {
    // Arrange
    process.env.PRICE_FEED_BUCKET = 'bundle-test-feed';
    const { handler } = (await import(pathToFileURL(join(outdir, 'priceFeedImport', 'index.mjs')).href)) as {
      handler: (event: unknown) => Promise<unknown>;
    };
    const event = { detail: { bucket: { name: 'bundle-test-feed' }, object: { key: 'reports/a.csv.json' } } };

    // Act
    const result = await handler(event).finally(() => {
      delete process.env.PRICE_FEED_BUCKET;
    });

    // Assess
    expect(result).toEqual({
      status: 'ignored',
      reason: 'reports/a.csv.json is neither under incoming/ nor dry-run/',
    });
    const source = readFileSync(join(outdir, 'priceFeedImport', 'index.mjs'), 'utf8');
    expect(source).toContain('import("@smithy/core/event-streams")');
    expect(source).not.toMatch(/from\s*"@smithy\/core\/event-streams"/);
  });
});

describe('validation in a bundle without zod classic', () => {
  it('carries zod/mini without zod classic or the whole zod core (its compiler)', () => {
    // Arrange
    const zodFiles = ['getMe', 'getOpenApi'].flatMap((name) =>
      bundledInputs(name).filter((file) => file.includes('zod/v4/')),
    );

    // Act
    const classic = zodFiles.filter((file) => file.includes('zod/v4/classic/'));
    const compiler = zodFiles.filter((file) => file.endsWith('zod/v4/core/compile.js'));

    // Assess
    expect(zodFiles.some((file) => file.includes('zod/v4/mini/'))).toBe(true);
    expect([classic, compiler]).toEqual([[], []]);
  });

  it('refuses an unknown query parameter in our words, as from source', async () => {
    // Arrange
    const { handler } = await bundled('getOpenApi');
    const request = () =>
      httpEvent({ method: 'GET', path: '/v1/openapi.json', queryStringParameters: { formt: 'yaml' } });
    const problemOf = (response: HttpResponse) => {
      const { request_id: _, ...problem } = JSON.parse(String(response.body)) as Record<string, unknown>;
      return problem;
    };

    // Act
    const fromBundle = await handler(request(), lambdaContext());
    const fromSource = await getOpenApiFromSource(request(), lambdaContext());

    // Assess
    expect(fromBundle.statusCode).toBe(422);
    expect(problemOf(fromBundle)).toEqual(problemOf(fromSource));
    expect(problemOf(fromBundle)).toMatchObject({
      code: 'validation_failed',
      errors: [{ field: 'formt', message: 'is not a recognized field' }],
    });
  });
});

describe('the llms.txt function bundle', () => {
  it('lists the operations from the file written beside it, as from source, without any schema', async () => {
    // Arrange
    const { handler } = await bundled('getLlmsTxt');
    const request = () => httpEvent({ method: 'GET', path: '/v1/llms.txt' });

    // Act
    const fromBundle = await handler(request(), lambdaContext());
    const fromSource = await getLlmsTxtFromSource(request(), lambdaContext());

    // Assess
    expect(bundledInputs('getLlmsTxt').filter((file) => /^shared\/.*schemas\.ts$/.test(file))).toEqual([]);
    expect(existsSync(join(outdir, 'getLlmsTxt', 'guide-routes.json'))).toBe(true);
    expect(fromBundle.statusCode).toBe(200);
    expect(fromBundle.body).toBe(fromSource.body);
  });
});

describe('the MCP function bundle', () => {
  it("loads only its entry at a cold start; each tool's route handler is a chunk of its own that loads", async () => {
    // Arrange
    const { sizes, outdir: mcpOut } = await bundleFunctions({
      outdir: join(workDir, 'mcp-functions'),
      entries: [{ ...entry(agentOperations.mcp), lazyChunks: true }],
    });
    const chunks = readdirSync(join(mcpOut, 'mcp', 'chunks'));
    const getMeChunk = chunks.find((file) => file.startsWith('get-me-'));

    // Act
    const routeModule = (await import(
      pathToFileURL(join(mcpOut, 'mcp', 'chunks', getMeChunk ?? '')).href
    )) as {
      handler: (event: unknown, context: unknown) => Promise<HttpResponse>;
    };
    const response = await routeModule.handler(httpEvent({ method: 'GET', path: '/v1/me' }), lambdaContext());

    // Assess
    const [mcp] = sizes;
    expect(mcp?.bytes).toBeLessThan(mcp?.totalBytes ?? 0);
    expect(response.statusCode).toBe(401);
    // The SDK's default validator (ajv) is replaced by a stand-in: the server passes its own.
    const mcpMeta = JSON.parse(readFileSync(`${mcpOut}.meta.json`, 'utf8')) as Metafile;
    const bundledAjv = Object.values(mcpMeta.outputs).flatMap(({ inputs }) =>
      Object.keys(inputs).filter((file) => /node_modules[\\/]ajv/.test(file)),
    );
    expect(bundledAjv).toEqual([]);
    await expect(import(pathToFileURL(join(mcpOut, 'mcp', 'index.mjs')).href)).resolves.toHaveProperty(
      'handler',
    );
    // tools/list answers from the tools generated at build time, the same as from source.
    expect(JSON.parse(readFileSync(join(mcpOut, 'mcp', 'mcp-tools.json'), 'utf8'))).toEqual(
      readListedTools(),
    );
    const entryInputs = Object.keys(
      mcpMeta.outputs[`${relative(repoRoot, mcpOut)}/mcp/index.mjs`]?.inputs ?? {},
    );
    expect(entryInputs).toContain('functions/http/agents/mcp.ts');
    expect(entryInputs.filter((file) => /^shared\/.*schemas\.ts$/.test(file))).toEqual([]);
    // The whole API in one esbuild run with splitting: several seconds, more on a busy machine.
  }, 90_000);
});
