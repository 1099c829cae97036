/**
 * The sandbox page's script, as served at /sandbox/assets/app.js. From source (the local stack,
 * tests) it is bundled by esbuild on first use and kept for the process. In a Lambda bundle,
 * scripts/bundle-functions.ts replaces this whole module with the prebuilt text, so no function
 * carries esbuild or builds anything at run time.
 */
let script: Promise<string> | undefined;

export function sandboxScript(): Promise<string> {
  script ??= import('./build.ts')
    .then(({ buildSandboxScript }) => buildSandboxScript())
    .catch((error: unknown) => {
      // A failed build (a syntax error being fixed) is retried on the next request.
      script = undefined;
      throw error;
    });
  return script;
}
