import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Context } from 'aws-lambda';

/**
 * Which code a stage server runs. Unset: the TypeScript sources under functions/ (through tsx), the
 * fast loop while developing. Set to a folder written by scripts/bundle-functions.ts: each function's
 * bundle, `<folder>/<name>/index.mjs`, the artifact `cdk deploy` uploads, with its build-time
 * transforms (docs/local-stack.md, "What the stage servers run").
 */
export const FUNCTION_BUNDLES_ENV = 'LOCAL_FUNCTION_BUNDLES';

/**
 * A function as the bundler names it (scripts/bundle-functions.ts `FunctionEntry`): `name` is its
 * bundle's folder (a route's operationId, a worker's name), `handler` its source module. Two routes
 * may share a source module (`getLlmsTxt`, `getRootLlmsTxt`) and still have a bundle each.
 */
export interface LocalFunction {
  name: string;
  /** Relative to the repository root; the module exports `handler`. */
  handler: string;
}

/** Any Lambda handler; each caller knows the event its functions take. */
export type AnyLambdaHandler = (event: never, context: Context) => unknown;

export interface LoadedFunction<H = AnyLambdaHandler> {
  handler: H;
  /** Absolute path of the module the handler was imported from. */
  file: string;
}

export type FunctionLoader = (fn: LocalFunction) => Promise<LoadedFunction>;

const repoRoot = new URL('../', import.meta.url);

/** The file a function's handler comes from: its bundle when `bundlesDir` is given, else its source. */
export function functionFile(fn: LocalFunction, bundlesDir?: string, root: URL = repoRoot): string {
  return bundlesDir ? join(bundlesDir, fn.name, 'index.mjs') : fileURLToPath(new URL(fn.handler, root));
}

/**
 * Imports each function's module once (like a warm container) and hands back its `handler` export
 * with the file it came from. With bundles, every function is its own module graph, as in Lambda:
 * nothing it holds at module level is shared with another function, except what is registered on
 * `globalThis` for the whole process (the local pipeline, shared/wiring/message-queues.ts).
 *
 * @example
 * const load = createFunctionLoader({ bundlesDir: '/tmp/bundles/functions' });
 * const { handler, file } = await load({ name: 'getMe', handler: 'functions/http/accounts/get-me.ts' });
 */
export function createFunctionLoader(options: { bundlesDir?: string; root?: URL } = {}): FunctionLoader {
  const cache = new Map<string, Promise<LoadedFunction>>();
  return (fn) => {
    const file = functionFile(fn, options.bundlesDir, options.root);
    let loading = cache.get(file);
    if (!loading) {
      loading = import(pathToFileURL(file).href).then((module: { handler?: unknown }) => {
        if (typeof module.handler !== 'function') throw new Error(`${file} does not export a handler`);
        return { handler: module.handler as AnyLambdaHandler, file };
      });
      // A module that was not there (not written yet) is looked for again on the next request.
      // Node keeps a module that failed to evaluate in its cache: fixing one needs a restart.
      loading.catch(() => cache.delete(file));
      cache.set(file, loading);
    }
    return loading;
  };
}
