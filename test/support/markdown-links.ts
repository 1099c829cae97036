import { existsSync, readFileSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';

/**
 * Links in Markdown as GitHub renders them, for the test that keeps README.md and docs/ pointing
 * only at files (and headings) inside the repository.
 */

/** Markdown without fenced code blocks and inline code, where `[a](b)` is not a link. */
function prose(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/`[^`\n]*`/g, '');
}

/** Targets of inline links and images `[text](target "title")` and reference definitions `[x]: target`. */
export function linkTargets(markdown: string): string[] {
  const text = prose(markdown);
  const inline = [...text.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]*)>?(?:\s+"[^"]*")?\s*\)/g)].map(
    (m) => m[1] ?? '',
  );
  const references = [...text.matchAll(/^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm)].map((m) => m[1] ?? '');
  return [...inline, ...references];
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const [, heading] of prose(markdown).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = (heading ?? '')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

/** Why a link from `document` (a path relative to `repositoryRoot`) is broken, or undefined. */
export function brokenLink(repositoryRoot: string, document: string, target: string): string | undefined {
  if (target === '') return 'empty link';
  if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//'))
    return 'points outside the repository (a URL)';
  const [path = '', fragment] = target.split('#', 2);
  if (isAbsolute(path)) return 'absolute path (points outside the repository)';
  const file =
    path === ''
      ? join(repositoryRoot, document)
      : resolve(repositoryRoot, dirname(document), decodeURI(path));
  const inside = relative(repositoryRoot, file);
  if (inside.startsWith('..') || isAbsolute(inside)) return 'points outside the repository';
  if (!existsSync(file)) return `no such file: ${inside}`;
  if (fragment && file.endsWith('.md') && !headingAnchors(readFileSync(file, 'utf8')).has(fragment)) {
    return `no heading #${fragment} in ${inside}`;
  }
  return undefined;
}
