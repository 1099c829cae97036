import { copyFileSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { type BuildOptions, build, type Metafile, type Plugin } from 'esbuild';
import { workerFunctions } from '#lib/worker-functions.ts';
import { adminRouteList } from '#shared/admin/api/operations.ts';
import { readGuideFacts, readGuideRoutes } from '#shared/agents/llms/guide-routes.ts';
import { readListedTools } from '#shared/agents/mcp/listed-tools.ts';
import { PUBLISHED_DOCUMENTS } from '#shared/api/published-documents.ts';
import { fallbackOperation, servedRouteList } from '#shared/api/route-table.ts';
import { GEO_DATA_FILES } from '#shared/geo/data-files.ts';
import { buildSandboxScript } from '../web/sandbox/build.ts';
import { pureConstants } from './pure-constants.ts';

/** One Lambda's code: `name` is its directory under the output folder, `handler` its source module. */
export interface FunctionEntry {
  name: string;
  /** Relative to the repository root; the module exports `handler`. */
  handler: string;
  /**
   * Built on its own with esbuild's `splitting`: each dynamic `import()` becomes a chunk in
   * `<name>/chunks/`, loaded on first use, so a cold start loads only the entry. The MCP function
   * reaches every route's handler, each loaded when its tool is first called.
   */
  lazyChunks?: boolean;
}

/** The functions whose dynamic imports load on first use (see FunctionEntry.lazyChunks). */
const functionsWithLazyChunks: ReadonlySet<string> = new Set(['mcp']);
/**
 * Modules imported dynamically so that a cold start does not load them. A function whose bundle
 * holds one is rebuilt with lazy chunks (FunctionEntry.lazyChunks), found from the metafile, so no
 * list of functions goes stale: the Amazon Location adapter and its client
 * (shared/geo/routing-engine-factory.ts) in every function that plans routes; the SQS and
 * Scheduler adapters with their clients (shared/wiring/message-queues.ts, retry-scheduler.ts) in
 * every function that may send to a queue or schedule a delivery's retry.
 */
const lazilyLoadedModules: readonly string[] = [
  'shared/geo/amazon-location-router.ts',
  'shared/platform/adapters/sqs-queue.ts',
  'shared/platform/adapters/eventbridge-scheduler.ts',
];

export interface BundleOptions {
  /** Repository root the handler paths are relative to. */
  rootDir?: string;
  /** Where `<name>/index.mjs` is written; it is emptied first. */
  outdir?: string;
  entries?: readonly FunctionEntry[];
}

export interface FunctionBundleSize {
  name: string;
  /** What a cold start loads: the entry module and the chunks it imports statically. */
  bytes: number;
  gzipBytes: number;
  /**
   * Everything in the function's folder: the entry, its lazily loaded chunks
   * (FunctionEntry.lazyChunks) and the data files it reads on first use (shared/geo/data-files.ts).
   */
  totalBytes: number;
}

export interface BundleResult {
  outdir: string;
  /** esbuild's metafile, written beside the output folder (not inside any function's asset). */
  metafilePath: string;
  sizes: FunctionBundleSize[];
}

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const defaultFunctionsDir = join(repoRoot, 'dist', 'functions');

/**
 * Every deployable handler. HTTP routes come from the route table and its pages (plus API
 * Gateway's `$default` fallback) and the operator route table, workers from lib/worker-functions.ts,
 * so one esbuild run builds them all.
 */
export function functionEntries(): FunctionEntry[] {
  const http = [...servedRouteList, fallbackOperation, ...adminRouteList].map(({ operationId, handler }) => ({
    name: operationId,
    handler,
    ...(functionsWithLazyChunks.has(operationId) ? { lazyChunks: true } : {}),
  }));
  const workers = workerFunctions.map(({ name, handler }) => ({ name, handler }));
  return assertUniqueNames([...http, ...workers]);
}

function assertUniqueNames(entries: FunctionEntry[]): FunctionEntry[] {
  const seen = new Set<string>();
  for (const { name } of entries) {
    if (seen.has(name)) throw new Error(`Two functions are named ${name}; each needs its own output folder`);
    seen.add(name);
  }
  return entries;
}

/**
 * CommonJS code bundled into ESM still calls `require` for Node built-ins (the X-Ray SDK behind
 * Powertools Tracer) and for optional packages it probes in a try (the AWS SDK's CRT signer). Node's
 * ESM scope has no `require`, and esbuild's stand-in throws "Dynamic require … is not supported".
 */
export const requireShim =
  "import { createRequire as __ffCreateRequire } from 'node:module'; const require = __ffCreateRequire(import.meta.url);";

/**
 * Bundles every handler in ONE esbuild run: dozens of functions cost one build of a few seconds, and
 * shared modules are parsed once.
 *
 * @example
 * const { sizes } = await bundleFunctions();
 * console.log(formatSizeTable(sizes));
 */
/**
 * `zod` re-exports every locale (`z.locales.*`, ~60 languages, ~190 KB minified) and esbuild cannot
 * drop a namespace re-export. Our messages are English (zod's default, imported by its schemas
 * directly), so the namespace is replaced by English alone: a quarter of every bundle, measured.
 */
const englishOnlyZodLocales: Plugin = {
  name: 'english-only-zod-locales',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[\\/]zod[\\/]v4[\\/](?:classic|core)[\\/]/.test(args.importer)
        ? { path: 'zod-locales-en', namespace: 'zod-locales' }
        : undefined,
    );
    pluginBuild.onLoad({ filter: /.*/, namespace: 'zod-locales' }, () => ({
      contents: "export { default as en } from 'zod/v4/locales/en.js';",
      resolveDir: pluginBuild.initialOptions.absWorkingDir ?? process.cwd(),
      loader: 'js',
    }));
  },
};

/**
 * The SDK clients resolve credentials through `@aws-sdk/credential-provider-node`: a chain of
 * env, SSO, ini files, web identity, the container and instance metadata endpoints, with the
 * STS/SSO/sign-in clients it needs (~90 KB minified in every function). On Lambda the execution
 * role's credentials are always in the environment (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY,
 * AWS_SESSION_TOKEN), so the Lambda bundle's chain is `fromEnv()` alone. Run from source (tests,
 * the local stack, scripts) nothing changes.
 */
const environmentCredentialsOnly: Plugin = {
  name: 'environment-credentials-only',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^@aws-sdk\/credential-provider-node$/ }, () => ({
      path: 'credential-provider-env-only',
      namespace: 'lambda-credentials',
    }));
    pluginBuild.onLoad({ filter: /.*/, namespace: 'lambda-credentials' }, () => ({
      contents: [
        "import { fromEnv } from '@aws-sdk/credential-provider-env';",
        'export const defaultProvider = (init = {}) => fromEnv(init);',
      ].join('\n'),
      resolveDir: pluginBuild.initialOptions.absWorkingDir ?? process.cwd(),
      loader: 'js',
    }));
  },
};

/**
 * CommonJS packages esbuild must keep wherever a module importing them is bundled, even when
 * nothing calls them, because evaluating CommonJS might have side effects. These have none (they
 * define what they export), so they are marked side-effect-free and go where unused: ipaddr.js
 * (~13 KB) came with shared/platform/url-guard.ts into every function wiring the event recorder,
 * GET routes included, which never check a webhook URL (the guard's module-level blocks are marked
 * pure for the same reason; both are needed); @mapbox/polyline (~1.3 KB) with shared/geo/polyline.ts
 * into the trip reads and other functions that never encode or decode a polyline.
 */
const sideEffectFreePackages: Plugin = {
  name: 'side-effect-free-packages',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^(?:ipaddr\.js|@mapbox\/polyline)$/ }, async (args) => {
      if (args.pluginData === 'side-effect-free') return undefined;
      const resolved = await pluginBuild.resolve(args.path, {
        kind: args.kind,
        importer: args.importer,
        resolveDir: args.resolveDir,
        pluginData: 'side-effect-free',
      });
      return resolved.errors.length > 0 ? undefined : { ...resolved, sideEffects: false };
    });
  },
};

/**
 * Each SDK client imports its whole package.json (~2.3 KB minified: scripts, dependencies, files)
 * to put its version in the User-Agent; `version` is the only field it reads.
 */
const sdkClientVersionOnly: Plugin = {
  name: 'sdk-client-version-only',
  setup(pluginBuild) {
    pluginBuild.onLoad({ filter: /[\\/]@aws-sdk[\\/]client-[^\\/]+[\\/]package\.json$/ }, (args) => ({
      contents: JSON.stringify({
        version: (JSON.parse(readFileSync(args.path, 'utf8')) as { version: string }).version,
      }),
      loader: 'json',
    }));
  },
};

/**
 * The MCP SDK's server imports its default JSON Schema validator (ajv, ajv-formats, fast-uri: ~135 KB
 * minified) to check elicitation answers; our server never elicits and passes its own validator
 * (shared/agents/mcp/server.ts, `noElicitationValidator`), so the default is never constructed. The bundle
 * gets a stand-in that fails loudly if it ever were.
 */
const withoutMcpAjvValidator: Plugin = {
  name: 'without-mcp-ajv-validator',
  setup(pluginBuild) {
    pluginBuild.onLoad(
      { filter: /[\\/]@modelcontextprotocol[\\/]sdk[\\/].*[\\/]validation[\\/]ajv-provider\.js$/ },
      () => ({
        contents: [
          'export class AjvJsonSchemaValidator {',
          '  constructor() {',
          "    throw new Error('The ajv JSON Schema validator is not bundled: pass jsonSchemaValidator (scripts/bundle-functions.ts)');",
          '  }',
          '}',
        ].join('\n'),
        loader: 'js',
      }),
    );
  },
};

/**
 * The SDK loads its event-stream codec (~12 KB minified) with a dynamic import, only for an
 * operation that streams events, and we call none (S3's SelectObjectContent is the only one among
 * our clients). That import stays out of the bundle: a call would fail loudly instead of running.
 * S3's client also imports the module's config resolvers statically, at construction: those are bundled.
 */
const withoutEventStreamCodec: Plugin = {
  name: 'without-event-stream-codec',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^@smithy\/core\/event-streams$/ }, (args) =>
      args.kind === 'dynamic-import' ? { path: args.path, external: true } : undefined,
    );
  },
};

/**
 * The DynamoDB client constructs an endpoint-discovery cache (an LRU from mnemonist, ~7 KB
 * minified), but none of its commands installs the discovery middleware that would consult it (SDK
 * 3.1162), so it stays empty. The bundle gets a stand-in that answers "no discovered endpoint", as
 * an empty cache does, and fails loudly if anything ever tried to fill it.
 */
const withoutEndpointDiscoveryCache: Plugin = {
  name: 'without-endpoint-discovery-cache',
  setup(pluginBuild) {
    pluginBuild.onLoad({ filter: /[\\/]@aws-sdk[\\/]endpoint-cache[\\/]dist-es[\\/]index\.js$/ }, () => ({
      contents: [
        'export class EndpointCache {',
        '  getEndpoint() { return undefined; }',
        '  get() { return undefined; }',
        '  has() { return false; }',
        '  clear() {}',
        '  set() {',
        "    throw new Error('DynamoDB endpoint discovery is off and its cache is not bundled (scripts/bundle-functions.ts)');",
        '  }',
        '  delete() {}',
        '}',
      ].join('\n'),
      loader: 'js',
    }));
  },
};

/**
 * zod's classic schemas wire every type to its JSON Schema converter (`toJSONSchema`, the
 * per-type processors: ~20 KB minified), so esbuild keeps that code in every bundle although no
 * function converts schemas when it runs: the documents are generated by scripts, and the MCP
 * tools' input schemas at build time (shared/agents/mcp/listed-tools.ts). The bundles get stubs that fail
 * loudly if something ever does call them; validation, parsing and error messages do not touch them.
 */
function withoutZodJsonSchema(): Plugin {
  const modules = /[\\/]zod[\\/]v4[\\/]core[\\/](json-schema-processors|to-json-schema)\.js$/;
  return {
    name: 'without-zod-json-schema',
    setup(pluginBuild) {
      pluginBuild.onLoad({ filter: modules }, async (args) => {
        const names = Object.keys(await import(pathToFileURL(args.path).href));
        const unavailable =
          "() => { throw new Error('JSON Schema conversion is not bundled into this function (scripts/bundle-functions.ts)'); }";
        // Factories (`createToJSONSchemaMethod`, `~standard`'s `jsonSchema`) are called while a schema
        // is built or inspected; what they return is what must fail.
        const contents = names
          .map((name) =>
            name.startsWith('create')
              ? `export const ${name} = () => ${unavailable};`
              : `export const ${name} = ${unavailable};`,
          )
          .join('\n');
        return { contents, loader: 'js' };
      });
    },
  };
}

/** A module whose readers parse data files: run from source it reads them where they live. */
interface DataFileModule {
  /** The module the bundle replaces by readers of the copies beside the output holding them. */
  module: RegExp;
  /** Each file's name beside the bundle, and the file it copies or the build-time value it writes. */
  files: Readonly<Record<string, { name: string } & ({ source: string } | { generate: () => unknown })>>;
  /** The function it exports taking a file's key, if any: `(file) => parsed JSON`. */
  reader?: string;
  /**
   * The functions it exports reading one file each, by file key: an output that calls one holds
   * (and ships) that file alone.
   */
  readerOf?: Readonly<Record<string, string>>;
}

/**
 * The data read on first use instead of imported, so it is not JavaScript evaluated at every cold
 * start: the highway graph and the state shapes (shared/geo/data-files.ts), the published OpenAPI
 * documents (shared/api/published-documents.ts); the MCP tools as tools/list shows them
 * (shared/agents/mcp/listed-tools.ts) and the operations and facts the llms.txt guide states
 * (shared/agents/llms/guide-routes.ts), both generated here from the route table as from source.
 */
const dataFileModules: Readonly<Record<string, DataFileModule>> = {
  geo: {
    module: /[\\/]shared[\\/]geo[\\/]data-files\.ts$/,
    reader: 'readGeoDataFile',
    files: GEO_DATA_FILES,
  },
  documents: {
    module: /[\\/]shared[\\/]api[\\/]published-documents\.ts$/,
    files: PUBLISHED_DOCUMENTS,
    readerOf: { openApi: 'readOpenApiDocument', adminOpenApi: 'readAdminOpenApiDocument' },
  },
  mcp: {
    module: /[\\/]shared[\\/]agents[\\/]mcp[\\/]listed-tools\.ts$/,
    files: { tools: { name: 'mcp-tools.json', generate: readListedTools } },
    readerOf: { tools: 'readListedTools' },
  },
  llms: {
    module: /[\\/]shared[\\/]agents[\\/]llms[\\/]guide-routes\.ts$/,
    files: {
      routes: { name: 'guide-routes.json', generate: readGuideRoutes },
      facts: { name: 'guide-facts.json', generate: readGuideFacts },
    },
    readerOf: { routes: 'readGuideRoutes', facts: 'readGuideFacts' },
  },
};

/** The namespace of the modules that read a data file beside the bundle (see {@link lazyDataFiles}). */
const dataFileNamespace = 'data-file';
const dataFileId = (group: string, file: string) => `${dataFileNamespace}:${group}/${file}`;

/**
 * In a bundle, each reader of {@link dataFileModules} reads the copy beside the output file that
 * holds it (one module per file, so an output holds only the readers of its group);
 * {@link copyDataFiles} writes those copies, which therefore ship in the function's asset.
 */
const lazyDataFiles: Plugin = {
  name: 'lazy-data-files',
  setup(pluginBuild) {
    for (const [group, { module, files, reader, readerOf = {} }] of Object.entries(dataFileModules)) {
      pluginBuild.onLoad({ filter: module }, () => ({
        contents: [
          ...Object.keys(files).map((file) => `import read_${file} from '${dataFileId(group, file)}';`),
          ...Object.entries(readerOf).map(([file, name]) => `export const ${name} = read_${file};`),
          ...(reader
            ? [
                'const readers = {',
                ...Object.keys(files).map((file) => `  ${file}: read_${file},`),
                '};',
                `export const ${reader} = (file) => readers[file]();`,
              ]
            : []),
        ].join('\n'),
        loader: 'js',
      }));
    }
    pluginBuild.onResolve({ filter: new RegExp(`^${dataFileNamespace}:`) }, (args) => ({
      path: args.path.slice(dataFileNamespace.length + 1),
      namespace: dataFileNamespace,
    }));
    pluginBuild.onLoad({ filter: /.*/, namespace: dataFileNamespace }, (args) => {
      const [group, file] = args.path.split('/') as [string, string];
      const { name } = dataFileModules[group]?.files[file] ?? {};
      return {
        contents: [
          "import { readFileSync } from 'node:fs';",
          `export default () => JSON.parse(readFileSync(new URL('./${name}', import.meta.url), 'utf8'));`,
        ].join('\n'),
        loader: 'js',
      };
    });
  },
};

/**
 * Writes each data file beside every output that reads it (an entry, or a lazy chunk), from the
 * metafile: the reader is in an output when the output's inputs name it.
 */
function copyDataFiles(metafile: Metafile, rootDir: string): string[] {
  const copies: string[] = [];
  for (const [output, { inputs }] of Object.entries(metafile.outputs)) {
    for (const [group, { files }] of Object.entries(dataFileModules)) {
      for (const [file, data] of Object.entries(files)) {
        if (!inputs[dataFileId(group, file)]?.bytesInOutput) continue;
        const copy = join(dirname(resolve(rootDir, output)), data.name);
        if ('source' in data) copyFileSync(data.source, copy);
        else writeFileSync(copy, JSON.stringify(data.generate()));
        copies.push(copy);
      }
    }
  }
  return copies;
}

/**
 * The sandbox page's script is a browser bundle of its own (web/sandbox/). From source,
 * web/sandbox/script.ts builds it with esbuild on first use; in a Lambda that module becomes the
 * prebuilt text, so the asset function serves a constant and carries no bundler.
 */
function prebuiltSandboxScript(script: string): Plugin {
  return {
    name: 'prebuilt-sandbox-script',
    setup(pluginBuild) {
      pluginBuild.onLoad({ filter: /[\\/]web[\\/]sandbox[\\/]script\.ts$/ }, () => ({
        contents: `export const sandboxScript = () => Promise.resolve(${JSON.stringify(script)});`,
        loader: 'js',
      }));
    },
  };
}

export async function bundleFunctions(options: BundleOptions = {}): Promise<BundleResult> {
  const rootDir = options.rootDir ?? repoRoot;
  const outdir = options.outdir ?? defaultFunctionsDir;
  const entries = options.entries ?? functionEntries();
  // A removed route must not leave a stale folder that still looks deployable.
  rmSync(outdir, { recursive: true, force: true });
  const sandboxScript = await buildSandboxScript();

  const common = {
    absWorkingDir: rootDir,
    outdir,
    outExtension: { '.js': '.mjs' },
    // Everything is bundled, @aws-sdk/* included although the nodejs22.x runtime ships an SDK v3: the
    // version we pin and test is the version that runs (the runtime's copy changes under us), and the
    // tree-shaken clients load less code on a cold start than the runtime's full packages.
    bundle: true,
    minify: true,
    treeShaking: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    // ESM builds of dependencies (`module`) tree-shake better than their CommonJS `main`.
    mainFields: ['module', 'main'],
    banner: { js: requireShim },
    // No source maps. Measured on a ~870 KB handler: a linked map adds ~1.2 MB to each function and
    // `--enable-source-maps` ~10 ms to each cold start (~100 -> ~110 ms to import). Expected errors are
    // typed problem codes; an unexpected stack trace shows minified frames, which a local build with
    // `sourcemap: 'linked'` maps back.
    sourcemap: false,
    legalComments: 'none',
    charset: 'utf8',
    define: { 'process.env.NODE_ENV': '"production"' },
    metafile: true,
    logLevel: 'warning',
  } satisfies BuildOptions;
  const plugins = [
    // Schema and route modules: a function keeps the schemas and route definitions it reads, not
    // every one of the modules it imports (scripts/pure-constants.ts).
    pureConstants(
      /[\\/]shared[\\/](?:[^\\/]+[\\/])?api[\\/](?:[^\\/]*schemas|[^\\/]*operations|route-group|ranges|query-numbers)\.ts$/,
    ),
    englishOnlyZodLocales,
    environmentCredentialsOnly,
    withoutMcpAjvValidator,
    withoutEndpointDiscoveryCache,
    withoutEventStreamCodec,
    withoutZodJsonSchema(),
    sideEffectFreePackages,
    sdkClientVersionOnly,
    lazyDataFiles,
    prebuiltSandboxScript(sandboxScript),
  ];
  const entryPoints = (group: readonly FunctionEntry[]) =>
    Object.fromEntries(group.map((entry) => [`${entry.name}/index`, entry.handler]));
  const lazyChunksRun = (entry: FunctionEntry): BuildOptions => ({
    entryPoints: entryPoints([entry]),
    plugins,
    splitting: true,
    chunkNames: `${entry.name}/chunks/[name]-[hash]`,
  });
  // Several runs, because `splitting` applies to a whole run: most functions in one run; each
  // function with lazy chunks alone, so its chunks are its own (in its folder) and shared with no
  // other function. Each run still parses the shared modules once.
  const whole = entries.filter((entry) => !entry.lazyChunks);
  const runs: BuildOptions[] = [
    ...(whole.length > 0 ? [{ entryPoints: entryPoints(whole), plugins }] : []),
    ...entries.filter((entry) => entry.lazyChunks).map(lazyChunksRun),
  ];
  const results = await Promise.all(runs.map((run) => build({ ...common, ...run, metafile: true })));
  const metafile: Metafile = {
    inputs: Object.assign({}, ...results.map((result) => result.metafile.inputs)),
    outputs: Object.assign({}, ...results.map((result) => result.metafile.outputs)),
  };

  // Functions holding a lazily loaded module, rebuilt alone with `splitting` so that the module is
  // a chunk again (one esbuild run cannot split some entries and not others).
  const functionOf = (output: string) => relative(outdir, resolve(rootDir, output)).split(sep)[0] as string;
  const holdsLazyModule = new Set(
    Object.entries(metafile.outputs)
      .filter(([, { inputs }]) =>
        lazilyLoadedModules.some((module) => (inputs[module]?.bytesInOutput ?? 0) > 0),
      )
      .map(([output]) => functionOf(output)),
  );
  const rebuilt = whole.filter((entry) => holdsLazyModule.has(entry.name));
  for (const { name } of rebuilt) rmSync(join(outdir, name), { recursive: true, force: true });
  for (const output of Object.keys(metafile.outputs)) {
    if (rebuilt.some(({ name }) => functionOf(output) === name)) delete metafile.outputs[output];
  }
  const rebuiltResults = await Promise.all(
    rebuilt.map((entry) => build({ ...common, ...lazyChunksRun(entry), metafile: true })),
  );
  for (const result of rebuiltResults) {
    Object.assign(metafile.inputs, result.metafile.inputs);
    Object.assign(metafile.outputs, result.metafile.outputs);
  }

  const dataFiles = copyDataFiles(metafile, rootDir);

  const metafilePath = `${outdir}.meta.json`;
  writeFileSync(metafilePath, JSON.stringify(metafile));
  return { outdir, metafilePath, sizes: bundleSizes(metafile, rootDir, outdir, dataFiles) };
}

function bundleSizes(
  metafile: Metafile,
  rootDir: string,
  outdir: string,
  dataFiles: readonly string[],
): FunctionBundleSize[] {
  const outputs = Object.entries(metafile.outputs).filter(([file]) => file.endsWith('.mjs'));
  const outputOf = new Map(outputs);
  // A function's folder holds its entry and, with lazy chunks, the chunks it may load later.
  const functionOf = (file: string) => relative(outdir, resolve(rootDir, file)).split(sep)[0] as string;
  // What a cold start loads: the entry and every chunk it imports statically, transitively.
  const loadedAtInit = (entry: string, seen = new Set<string>()): Set<string> => {
    seen.add(entry);
    for (const { path, kind } of outputOf.get(entry)?.imports ?? []) {
      if (kind === 'import-statement' && outputOf.has(path) && !seen.has(path)) loadedAtInit(path, seen);
    }
    return seen;
  };
  return outputs
    .filter(([file]) => relative(outdir, resolve(rootDir, file)) === join(functionOf(file), 'index.mjs'))
    .map(([file]) => {
      const name = functionOf(file);
      const atInit = [...loadedAtInit(file)];
      return {
        name,
        bytes: atInit.reduce((sum, path) => sum + (outputOf.get(path)?.bytes ?? 0), 0),
        // Close to the zipped size Lambda stores, downloads on a cold start and holds to its 50 MB limit.
        gzipBytes: atInit.reduce(
          (sum, path) => sum + gzipSync(readFileSync(resolve(rootDir, path))).byteLength,
          0,
        ),
        totalBytes:
          outputs
            .filter(([other]) => functionOf(other) === name)
            .reduce((sum, [, output]) => sum + output.bytes, 0) +
          dataFiles
            .filter((file) => relative(outdir, file).split(sep)[0] === name)
            .reduce((sum, file) => sum + statSync(file).size, 0),
      };
    })
    .sort((a, b) => b.bytes - a.bytes);
}

/**
 * A plain-text table, largest bundle first, so growth is easy to spot in a build log. `KB` is the
 * entry a cold start loads; `total KB` adds the chunks loaded on first use (the MCP tools' routes).
 */
export function formatSizeTable(sizes: readonly FunctionBundleSize[]): string {
  const kb = (bytes: number) => (bytes / 1024).toFixed(1);
  const width = Math.max('function'.length, ...sizes.map((size) => size.name.length));
  const lines = sizes.map(
    (size) =>
      `${size.name.padEnd(width)}  ${kb(size.bytes).padStart(8)}  ${kb(size.gzipBytes).padStart(8)}  ${kb(size.totalBytes).padStart(9)}`,
  );
  const total = sizes.reduce((sum, size) => sum + size.totalBytes, 0);
  return [
    `${'function'.padEnd(width)}  ${'KB'.padStart(8)}  ${'gzip KB'.padStart(8)}  ${'total KB'.padStart(9)}`,
    ...lines,
    `${sizes.length} functions, ${kb(total)} KB in total`,
  ].join('\n');
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const started = performance.now();
  const { sizes, outdir } = await bundleFunctions();
  console.log(formatSizeTable(sizes));
  console.log(
    `bundled into ${relative(process.cwd(), outdir)} in ${Math.round(performance.now() - started)} ms`,
  );
}
