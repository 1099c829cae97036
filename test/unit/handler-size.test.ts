import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const repoRoot = join(import.meta.dirname, '..', '..');
const MAX_CODE_LINES = 40;

/**
 * A file's code lines: the lines that hold at least one token of TypeScript, so blank lines and
 * lines that are only comments (`//`, block comments, JSDoc) do not count, while a line with code
 * and a trailing comment does, and so does every line of a multi-line string. The tokens come from
 * TypeScript's own parser, so a `//` inside a string, a template or a regular expression is code.
 */
function codeLines(source: string): number {
  const file = ts.createSourceFile('handler.ts', source, ts.ScriptTarget.Latest, true);
  const lines = new Set<number>();
  const visit = (node: ts.Node): void => {
    if (ts.isJSDoc(node)) return;
    const children = node.getChildren(file);
    if (children.length === 0 && node.kind !== ts.SyntaxKind.EndOfFileToken) {
      const first = file.getLineAndCharacterOfPosition(node.getStart(file)).line;
      const last = file.getLineAndCharacterOfPosition(node.getEnd()).line;
      for (let line = first; line <= last; line++) lines.add(line);
    }
    for (const child of children) visit(child);
  };
  visit(file);
  return lines.size;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(join(repoRoot, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => relative(repoRoot, join(entry.parentPath, entry.name)));
}

describe('handlers stay thin', () => {
  it(`keeps every file under functions/ at ${MAX_CODE_LINES} code lines or fewer: logic goes to shared/`, () => {
    const files = sourceFiles('functions');
    expect(files.length).toBeGreaterThan(100);
    const tooLong = files
      .map((file) => ({ file, lines: codeLines(readFileSync(join(repoRoot, file), 'utf8')) }))
      .filter(({ lines }) => lines > MAX_CODE_LINES);
    expect(tooLong, 'move the logic into shared/ (docs/architecture.md)').toEqual([]);
  });

  it('counts lines with code, not blank lines or comments', () => {
    const source = [
      '/**',
      ' * A JSDoc block.',
      ' */',
      "import { a } from './a.ts'; // a trailing comment",
      '',
      '// a line comment',
      "const url = 'https://example.com/*not a comment*/';",
      `const tpl = \`one \${a} // still the template`,
      'two`;',
      '/* a block */ const b = 1;',
      String.raw`const re = /\/\/ \/\*/; // a regular expression, then a comment`,
      '   ',
      'export { b, re, tpl, url };',
    ].join('\n');
    expect(codeLines(source)).toBe(7);
  });
});
