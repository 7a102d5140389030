import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The README and docs/ are read in the repository or on its web page: every relative link must
 * reach a file of the repository, and a `#heading` a heading of that file (as GitHub names it).
 * No link leaves the repository: a reader of a clone has nothing else.
 */
const root = resolve('.');
const documents = [
  'README.md',
  ...readdirSync('docs')
    .filter((name) => name.endsWith('.md'))
    .map((name) => join('docs', name)),
];

/** The text outside fenced code blocks, whose brackets are not links. */
function prose(markdown: string): string {
  return markdown.replace(/^```[\s\S]*?^```/gm, '');
}

function linksOf(markdown: string): string[] {
  const withoutCode = prose(markdown).replace(/`[^`\n]*`/g, '');
  return [...withoutCode.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1]!);
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const [, heading] of prose(markdown).matchAll(/^#{1,6} +(.+?) *#*$/gm)) {
    const text = heading!.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1');
    const slug = text
      .toLowerCase()
      .replace(/[^\p{L}\p{N} _-]/gu, '')
      .replace(/ /g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

describe('links in the README and docs/', () => {
  it('finds the documents and their links', () => {
    expect(documents).toContain('docs/commands.md');
    expect(linksOf(readFileSync('README.md', 'utf8')).length).toBeGreaterThan(10);
  });

  it.each(documents)('%s links only to files and headings of the repository', (document) => {
    const broken: string[] = [];
    for (const link of linksOf(readFileSync(document, 'utf8'))) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(link)) {
        broken.push(`${link}: leaves the repository`);
        continue;
      }
      const [path = '', anchor] = link.split('#', 2);
      const target = path === '' ? resolve(document) : resolve(dirname(document), decodeURI(path));
      if (relative(root, target).startsWith('..')) broken.push(`${link}: outside the repository`);
      else if (!existsSync(target)) broken.push(`${link}: no such file`);
      else if (anchor !== undefined && !anchorsOf(readFileSync(target, 'utf8')).has(anchor))
        broken.push(`${link}: no such heading`);
    }
    expect(broken).toEqual([]);
  });

  it.each(documents)('%s speaks to a user of the repository, not of its history', (document) => {
    const text = readFileSync(document, 'utf8');
    expect(text).not.toMatch(/\.\.\/shared|BENCHMARKS\.md|\bissue \d|commit `[0-9a-f]{7,}`/i);
  });
});
