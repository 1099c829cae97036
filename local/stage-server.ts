/**
 * One stage of the local API: an HTTP server in front of the route table. The local stack runs
 * each stage in its own process (`fork`), because handlers read their configuration (STAGE,
 * TABLE_NAME, …) from process.env once per process, just like one Lambda container. Its output is
 * piped through the parent, which prefixes each line with the stage (local/stack.ts).
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { adminRouteList } from '#shared/admin/api/operations.ts';
import { fallbackOperation, servedRouteList } from '#shared/api/route-table.ts';
import type { RouteDefinition } from '#shared/platform/http/route-definition.ts';
import {
  createFunctionLoader,
  FUNCTION_BUNDLES_ENV,
  type FunctionLoader,
  type LoadedFunction,
} from './function-loader.ts';
import { createApiGatewayServer } from './http-adapter.ts';
import { type LogFormat, logFormatFrom, requestLogLine } from './log-lines.ts';
import { createRouter } from './router.ts';
import {
  STAGE_SERVER_CHILD_ENV,
  type StageControlMessage,
  type StageServerMessage,
} from './stage-protocol.ts';
import { createUsageMeter, METER_LOGS_ENV, type StageUsage } from './usage.ts';
import { type LocalWorkers, startLocalWorkers } from './workers.ts';

/**
 * The routes a stage serves: the public table everywhere, the operator API (`/admin/v1/…`) on
 * production only, as in AWS; the sandbox answers 404 for admin paths through the fallback.
 */
export function stageRoutes(stage: string | undefined): readonly RouteDefinition[] {
  return stage === 'sandbox' ? servedRouteList : [...servedRouteList, ...adminRouteList];
}

export interface StageServerOptions {
  port: number;
  /** Default: the stage's routes ({@link stageRoutes} of STAGE). */
  routes?: readonly RouteDefinition[];
  host?: string;
  quiet: boolean;
  /** Default `lines`. */
  logFormat?: LogFormat;
  /** Default: a fresh {@link createFunctionLoader} of the sources. */
  loadFunction?: FunctionLoader;
}

export async function startStageServer(
  options: StageServerOptions,
): Promise<{ server: Server; port: number }> {
  let boundPort = options.port;
  const server = createApiGatewayServer({
    router: createRouter(options.routes ?? stageRoutes(process.env.STAGE), fallbackOperation),
    loadFunction: options.loadFunction ?? createFunctionLoader(),
    port: () => boundPort,
    region: process.env.AWS_REGION ?? 'us-east-1',
    ...(options.quiet
      ? {}
      : {
          logRequest: (entry) => console.log(requestLogLine(entry, options.logFormat ?? 'lines')),
        }),
    logError: (message, error) => console.error(`${message}:`, describeFault(error)),
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port: options.port, host: options.host ?? '127.0.0.1' }, () => {
      server.off('error', reject);
      resolve();
    });
  });
  boundPort = (server.address() as AddressInfo).port;
  return { server, port: boundPort };
}

/** A handler module that is not there (yet) needs one line, not a resolver stack trace. */
function describeFault(error: unknown): unknown {
  const { code, message } = error as NodeJS.ErrnoException;
  return code === 'ERR_MODULE_NOT_FOUND' ? message : error;
}

async function runAsChild(): Promise<void> {
  const send = (message: StageServerMessage) => process.send?.(message);
  const label = process.env.STAGE ?? 'stage';
  // Every route and worker invocation goes through the meter: counts, durations and log bytes per
  // function, for the cost model (bench/cost-model.ts).
  const meter = createUsageMeter();
  if (process.env[METER_LOGS_ENV] !== '0') meter.attributeLogs([process.stdout, process.stderr]);
  // The sources, or the bundles that deploy when the local stack names their folder; read once
  // `listen` has brought the rest of the environment, before any handler loads.
  let loadRaw: FunctionLoader | undefined;
  const metered = new Map<string, Promise<LoadedFunction>>();
  const loadFunction: FunctionLoader = (fn) => {
    let loading = metered.get(fn.name);
    if (!loading) {
      loadRaw ??= createFunctionLoader({ bundlesDir: process.env[FUNCTION_BUNDLES_ENV] || undefined });
      loading = loadRaw(fn).then(({ handler, file }) => ({ handler: meter.meter(handler), file }));
      // As the raw loader: a module that was not there is looked for again next time.
      loading.catch(() => metered.delete(fn.name));
      metered.set(fn.name, loading);
    }
    return loading;
  };
  const loadHandler = async (fn: { name: string; handler: string }) => (await loadFunction(fn)).handler;
  const usage = (): StageUsage => {
    const { rss, heapUsed } = process.memoryUsage();
    return {
      functions: meter.functions(),
      queues: workers
        ? { deliveries: workers.queue.usage(), vehicleUpdates: workers.vehicleUpdates.usage() }
        : {},
      unattributedLogBytes: meter.unattributedLogBytes(),
      memory: { rssBytes: rss, heapUsedBytes: heapUsed },
    };
  };
  let server: Server | undefined;
  let workers: LocalWorkers | undefined;

  const shutdown = () => {
    workers?.stop();
    if (!server) process.exit(0);
    server.close(() => process.exit(0));
    server.closeAllConnections();
    setTimeout(() => process.exit(0), 2000).unref();
  };
  const listen = async (env: Record<string, string>) => {
    Object.assign(process.env, env);
    // Registered before any handler module loads: fan-out, vehicle updates and the dispatcher's retries
    // reach this process's in-process queues and scheduler (LOCAL_PIPELINE=1, set by the local stack),
    // and the offline sweep runs every minute (LOCAL_SWEEP_INTERVAL_MS overrides it).
    workers = startLocalWorkers({
      stage: label,
      region: process.env.AWS_REGION ?? 'us-east-1',
      loadHandler,
      log: (line) => console.error(line),
    });
    try {
      const started = await startStageServer({
        port: Number(process.env.LOCAL_STAGE_PORT ?? 0),
        quiet: process.env.LOCAL_QUIET === '1',
        logFormat: logFormatFrom(process.env),
        loadFunction,
      });
      server = started.server;
      send({ type: 'ready', port: started.port });
    } catch (error) {
      const { code, message } = error as NodeJS.ErrnoException;
      send({
        type: 'error',
        message:
          code === 'EADDRINUSE'
            ? `port ${process.env.LOCAL_STAGE_PORT} is already in use (choose another with PORT / SANDBOX_PORT, or 0 for any free port)`
            : message,
      });
      process.exit(1);
    }
    // Warm every handler module now, one after another, as a provisioned Lambda would be: the first
    // request to each route then costs milliseconds, not a module graph. A module that fails here
    // reports itself when its route is called.
    for (const route of [...stageRoutes(process.env.STAGE), fallbackOperation]) {
      await loadFunction({ name: route.operationId, handler: route.handler }).catch(() => {});
    }
    await workers.warm();
  };

  // Ctrl-C reaches the whole process group; the parent decides when this server stops.
  process.on('SIGINT', () => {});
  process.on('SIGTERM', shutdown);
  // The parent is gone (crashed or killed): never outlive it.
  process.on('disconnect', shutdown);
  process.on('message', (message: StageControlMessage) => {
    if (message?.type === 'listen') void listen(message.env);
    else if (message?.type === 'stop') shutdown();
    else if (message?.type === 'usage') send({ type: 'usage', usage: usage() });
  });
  send({ type: 'loaded' });
}

if (process.env[STAGE_SERVER_CHILD_ENV] === '1') await runAsChild();
