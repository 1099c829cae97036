import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

/** The browser entry of the sandbox page. */
export const SANDBOX_SCRIPT_ENTRY = fileURLToPath(new URL('./browser/main.ts', import.meta.url));

/**
 * Bundles the page's script (d3-geo's projection, topojson-client and the us-atlas outlines
 * included, so the page fetches nothing but the API) into one minified IIFE. Build time and the
 * local stack only: esbuild is a devDependency and never ships in a Lambda (script.ts).
 */
export async function buildSandboxScript(): Promise<string> {
  const result = await build({
    entryPoints: [SANDBOX_SCRIPT_ENTRY],
    bundle: true,
    write: false,
    minify: true,
    format: 'iife',
    platform: 'browser',
    // Browsers of the last few years; nothing here needs more than ES2020 and DOM basics.
    target: ['es2020', 'chrome100', 'firefox100', 'safari15'],
    legalComments: 'none',
    charset: 'utf8',
    logLevel: 'warning',
  });
  const [output] = result.outputFiles;
  if (!output) throw new Error('esbuild wrote no sandbox page script');
  return output.text;
}
