import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { annotatePureConstants } from '#scripts/pure-constants.ts';

describe('annotatePureConstants', () => {
  it("marks each call of a top-level constant's initializer, a chain once at its start", () => {
    // Arrange
    const source = "export const a = z.string().check(z.minLength(1), z.meta({ id: 'A' }));";

    // Act
    const annotated = annotatePureConstants(source, 'a.ts');

    // Assess
    expect(annotated).toBe(
      "export const a = /* @__PURE__ */ z.string().check(/* @__PURE__ */ z.minLength(1), /* @__PURE__ */ z.meta({ id: 'A' }));",
    );
  });

  it('evaluates an initializer with a member read, a spread or an interpolation in an arrow marked pure', () => {
    // Arrange
    const source = [
      'export const a = z.array(z.string()).check(z.maxLength(LIMITS.maxItems));',
      'export const b = z.object({ ...shape, c: z.string() });',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the source text of a template literal
      'export const d = z.string().check(z.meta({ description: `at most ${max}` }));',
      'export const e = z.string().check(z.coerce.number());',
    ].join('\n');

    // Act
    const annotated = annotatePureConstants(source, 'c.ts').split('\n');

    // Assess: a callee's member read (`z.coerce.number`) is no reason to wrap
    expect(annotated).toEqual([
      'export const a = /* @__PURE__ */ (() => (z.array(z.string()).check(z.maxLength(LIMITS.maxItems))))();',
      'export const b = /* @__PURE__ */ (() => (z.object({ ...shape, c: z.string() })))();',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the source text of a template literal
      'export const d = /* @__PURE__ */ (() => (z.string().check(z.meta({ description: `at most ${max}` }))))();',
      'export const e = /* @__PURE__ */ z.string().check(/* @__PURE__ */ z.coerce.number());',
    ]);
  });

  it('marks a call the source already marks once, not twice', () => {
    const source = 'export const r = /* @__PURE__ */ defineRoute({ path: z.string() });';
    expect(annotatePureConstants(source, 'r.ts')).toBe(
      'export const r = /* @__PURE__ */ defineRoute({ path: /* @__PURE__ */ z.string() });',
    );
  });

  it('refuses, naming the place, an initializer that would change inside an arrow', () => {
    // A class expression takes its name from the constant; `await` is not allowed in the arrow.
    expect(() => annotatePureConstants('export const C = class { static k = o.p.q };', 'k.ts')).toThrow(
      /k\.ts:1:18: a class expression cannot be wrapped/,
    );
    expect(() => annotatePureConstants('export const v = (await load()).value;', 'w.ts')).toThrow(
      /w\.ts:1:18: an initializer with await cannot be wrapped/,
    );
    // Inside a function, await is that function's own.
    expect(() =>
      annotatePureConstants('export const f = { g: async () => (await h()).x, y: a.b };', 'f.ts'),
    ).not.toThrow();
  });

  it('leaves top-level statements and the bodies of functions as written', () => {
    // Arrange
    const source = [
      'z.config({ customError });',
      'export function f(kind: string) { return z.string().check(z.meta({ kind })); }',
      'export const g = (kind: string) => z.string().check(z.meta({ kind }));',
    ].join('\n');

    // Act
    const annotated = annotatePureConstants(source, 'b.ts');

    // Assess
    expect(annotated).toBe(source);
  });

  it('lets esbuild drop the constants nothing reads and keep the module-level effects and what is read', async () => {
    // Arrange
    const schemas = annotatePureConstants(
      [
        "import * as z from 'zod/mini';",
        "z.config({ customError: () => 'ours' });",
        'export const kept = z.string().check(z.minLength(1));',
        "export const dropped = z.email().check(z.maxLength(254), z.meta({ id: 'Dropped' }));",
        "const zones = new Set(Intl.supportedValuesOf('timeZone'));",
        'export const alsoDropped = z.string().check(z.refine((value) => zones.has(value)));',
        "const LIMITS = { maxItems: 500, label: 'Spread' };",
        'export const spreadDropped = z.object({ ...LIMITS, items: z.array(z.string()).check(z.maxLength(LIMITS.maxItems)) });',
      ].join('\n'),
      'schemas.ts',
    );

    // Act
    const { outputFiles } = await build({
      stdin: {
        contents: "import { kept } from './schemas.ts'; console.log(kept.safeParse('').error);",
        resolveDir: process.cwd(),
        loader: 'ts',
      },
      plugins: [
        {
          name: 'schemas',
          setup(pluginBuild) {
            pluginBuild.onResolve({ filter: /^\.\/schemas\.ts$/ }, () => ({
              path: 'schemas.ts',
              namespace: 's',
            }));
            pluginBuild.onLoad({ filter: /.*/, namespace: 's' }, () => ({
              contents: schemas,
              resolveDir: process.cwd(),
              loader: 'ts',
            }));
          },
        },
      ],
      bundle: true,
      write: false,
      format: 'esm',
      platform: 'node',
      logLevel: 'silent',
    });
    const code = outputFiles[0]?.text ?? '';

    // Assess
    expect(code).toContain('customError: () => "ours"');
    expect(code).toMatch(/var kept = /);
    expect([code.includes('Dropped'), code.includes('supportedValuesOf'), code.includes('Spread')]).toEqual([
      false,
      false,
      false,
    ]);
  });
});
