import { readFileSync } from 'node:fs';
import type { Plugin } from 'esbuild';
import ts from 'typescript';

/**
 * Marks every call and `new` in the initializers of a module's top-level constants as
 * `/* @__PURE__ *\/`, so that esbuild drops a constant no bundled code reads.
 *
 * esbuild keeps a top-level `const` whose initializer calls anything it cannot prove pure. zod's
 * factories are marked side-effect-free in zod itself, but esbuild does not carry that through a
 * namespace import (`z.string()`), and a method call (`.check(…)`) is never presumed pure: so every
 * schema of a schema module was kept wherever one of them was imported (a vehicle read carried the
 * e-mail, time-zone and problem schemas of common.ts). Only the constants' initializers are
 * annotated, down to (not into) the functions they define; top-level statements (`z.config(…)`)
 * and function bodies are left as written, so a module keeps every effect it has when imported.
 * Use it only on modules whose constants are values: building one must change nothing outside it.
 * (Building a zod schema with `.check(z.meta({ id }))` also adds it to zod's global registry, which
 * only JSON Schema conversion reads, and no function converts schemas when it runs.)
 *
 * @example
 * annotatePureConstants("export const a = z.string().check(z.minLength(1));", 'a.ts');
 * // "export const a = /* @__PURE__ *\/ z.string().check(/* @__PURE__ *\/ z.minLength(1));"
 */
export function annotatePureConstants(source: string, fileName: string): string {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const starts = new Set<number>();
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node)) return;
    // A chain (`z.string().check(…)`) starts where its innermost call does: one annotation there
    // applies to the whole chain, whose callee esbuild then ignores.
    if (ts.isCallExpression(node) || ts.isNewExpression(node)) starts.add(node.getStart(file));
    ts.forEachChild(node, visit);
  };
  for (const statement of file.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    for (const { initializer } of statement.declarationList.declarations) if (initializer) visit(initializer);
  }
  let annotated = source;
  for (const start of [...starts].sort((a, b) => b - a)) {
    annotated = `${annotated.slice(0, start)}/* @__PURE__ */ ${annotated.slice(start)}`;
  }
  return annotated;
}

/** Loads the modules matching `modules` through {@link annotatePureConstants}. */
export function pureConstants(modules: RegExp): Plugin {
  return {
    name: 'pure-constants',
    setup(pluginBuild) {
      pluginBuild.onLoad({ filter: modules }, (args) => ({
        contents: annotatePureConstants(readFileSync(args.path, 'utf8'), args.path),
        loader: 'ts',
      }));
    },
  };
}
