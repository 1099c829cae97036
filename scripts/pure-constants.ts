import { readFileSync } from 'node:fs';
import type { Plugin } from 'esbuild';
import ts from 'typescript';

/**
 * Marks the initializers of a module's top-level constants pure, so that esbuild drops a constant
 * no bundled code reads: every call and `new` in it gets `/* @__PURE__ *\/`, or, when it holds
 * what esbuild must presume has an effect even as a pure call's argument (a member read such as
 * `LIMITS.maxItems`, a spread such as `...pageQuery`, a template's interpolation), the whole
 * initializer is evaluated by an arrow called at once, and that call is marked.
 *
 * esbuild keeps a top-level `const` whose initializer calls anything it cannot prove pure. zod's
 * factories are marked side-effect-free in zod itself, but esbuild does not carry that through a
 * namespace import (`z.string()`), and a method call (`.check(…)`) is never presumed pure: so every
 * schema of a schema module was kept wherever one of them was imported (a vehicle read carried the
 * e-mail, time-zone and problem schemas of shared/api/common-schemas.ts, a trip read the planning routes with their
 * bodies). Only the constants' initializers change, down to (not into) the functions they define,
 * and each is still evaluated once, in order, when the module is; top-level statements
 * (`z.config(…)`) and function bodies are left as written, so a module keeps every effect it has
 * when imported. Use it only on modules whose constants are values: building one must change
 * nothing outside it. (Building a zod schema with `.check(z.meta({ id }))` also adds it to zod's
 * global registry, which only JSON Schema conversion reads, and no function converts schemas when
 * it runs.)
 *
 * @example
 * annotatePureConstants("export const a = z.string().check(z.minLength(1));", 'a.ts');
 * // "export const a = /* @__PURE__ *\/ z.string().check(/* @__PURE__ *\/ z.minLength(1));"
 * annotatePureConstants('export const b = z.object({ ...shape });', 'b.ts');
 * // "export const b = /* @__PURE__ *\/ (() => (z.object({ ...shape })))();"
 */
export function annotatePureConstants(source: string, fileName: string): string {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const insertions: { at: number; text: string }[] = [];
  for (const statement of file.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    for (const { initializer } of statement.declarationList.declarations) {
      if (!initializer) continue;
      if (needsWrapping(initializer)) {
        // What esbuild cannot see through (a member read, a spread, an interpolation) is evaluated
        // in an arrow called at once, and that call is marked pure instead.
        refuseUnwrappable(initializer, file);
        insertions.push({ at: initializer.getStart(file), text: '/* @__PURE__ */ (() => (' });
        insertions.push({ at: initializer.getEnd(), text: '))()' });
        continue;
      }
      const visit = (node: ts.Node): void => {
        if (ts.isFunctionLike(node)) return;
        // A chain (`z.string().check(…)`) starts where its innermost call does: one annotation
        // there applies to the whole chain, whose callee esbuild then ignores.
        if ((ts.isCallExpression(node) || ts.isNewExpression(node)) && !markedPure(node, file)) {
          insertions.push({ at: node.getStart(file), text: '/* @__PURE__ */ ' });
        }
        ts.forEachChild(node, visit);
      };
      visit(initializer);
    }
  }
  let annotated = source;
  // Two insertions at one position are the same marker (a chain's start found twice): kept once.
  const unique = new Map<number, { at: number; text: string }>();
  for (const insertion of insertions) {
    const there = unique.get(insertion.at);
    if (there && there.text !== insertion.text) {
      throw new Error(`pure-constants: ${fileName}: two different insertions at offset ${insertion.at}`);
    }
    unique.set(insertion.at, insertion);
  }
  // From the end, so that each position still points where it did in the source.
  const ordered = [...unique.values()].sort((a, b) => b.at - a.at);
  for (const { at, text } of ordered) annotated = `${annotated.slice(0, at)}${text}${annotated.slice(at)}`;
  return annotated;
}

/** Whether the source already marks this call pure (a route definition written `/* @__PURE__ *\/ defineRoute(…)`). */
const markedPure = (node: ts.Node, file: ts.SourceFile) =>
  file.text.slice(node.getFullStart(), node.getStart(file)).includes('@__PURE__');

/**
 * An initializer that would not mean the same inside an arrow: a class expression takes its name
 * from the constant (in the arrow it would have none), and `await` is not allowed there. Refused
 * with where it is, rather than built differently.
 */
function refuseUnwrappable(initializer: ts.Expression, file: ts.SourceFile): void {
  const where = () => {
    const { line, character } = file.getLineAndCharacterOfPosition(initializer.getStart(file));
    return `${file.fileName}:${line + 1}:${character + 1}`;
  };
  let inner: ts.Node = initializer;
  while (ts.isParenthesizedExpression(inner) || ts.isAsExpression(inner) || ts.isSatisfiesExpression(inner))
    inner = inner.expression;
  if (ts.isClassExpression(inner)) {
    throw new Error(
      `pure-constants: ${where()}: a class expression cannot be wrapped (it would lose its name)`,
    );
  }
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node)) return;
    if (ts.isAwaitExpression(node)) {
      throw new Error(`pure-constants: ${where()}: an initializer with await cannot be wrapped`);
    }
    ts.forEachChild(node, visit);
  };
  visit(initializer);
}

/**
 * Whether an initializer holds what esbuild must presume has an effect even in a pure call's
 * arguments: a member read that is not a call's callee (a getter might run), a spread, or a
 * template's interpolation (a `toString` might run).
 */
function needsWrapping(initializer: ts.Expression): boolean {
  let found = false;
  const isCallee = (node: ts.Node): boolean => {
    let chain: ts.Node = node;
    while (ts.isPropertyAccessExpression(chain.parent) && chain.parent.expression === chain)
      chain = chain.parent;
    const { parent } = chain;
    return (ts.isCallExpression(parent) || ts.isNewExpression(parent)) && parent.expression === chain;
  };
  const visit = (node: ts.Node): void => {
    if (found || ts.isFunctionLike(node)) return;
    if (
      ((ts.isPropertyAccessExpression(node) || ts.isElementAccessExpression(node)) && !isCallee(node)) ||
      ts.isSpreadElement(node) ||
      ts.isSpreadAssignment(node) ||
      ts.isTemplateExpression(node)
    ) {
      found = true;
      return;
    }
    ts.forEachChild(node, visit);
  };
  visit(initializer);
  return found;
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
