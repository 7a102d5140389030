import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/*
 * The examples of README.md and docs/*.md, as docs/development.md#examples-in-the-docs describes
 * them: a ```console block is a walk-through (`$ ` lines are typed, the lines under them are what
 * the terminal shows), `<!-- run with: a team ledger -->` above it when it needs one; any block of
 * commands that is not run says why, in `<!-- not run: why -->`.
 */

export interface FencedBlock {
  page: string;
  /** The line of the opening fence, counted from 1. */
  line: number;
  language: string;
  /** The reason of a `<!-- not run: ... -->` comment right above the fence, if any. */
  notRun: string | undefined;
  /** What a walk-through runs with, from a `<!-- run with: ... -->` comment above it (a team ledger). */
  runWith: string | undefined;
  lines: string[];
}

export interface WalkStep {
  /** Where the `$ ` line is, `page:line`. */
  at: string;
  command: string;
  expected: string[];
}

/** Languages whose blocks hold commands to type: each is run (console) or marked not run. */
export const commandLanguages = new Set(['console', 'sh', 'bash', 'shell', 'zsh', 'cron']);

export const documentedPages = (root: string): string[] => [
  'README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`),
];

const comment = /^\s*<!--\s*(not run|run with):\s*(.*?)\s*-->\s*$/;

/** Every fenced block of a page, its indentation (a block in a list item) taken off. */
export function fencedBlocks(root: string, page: string): FencedBlock[] {
  const source = readFileSync(join(root, page), 'utf8').split('\n');
  const blocks: FencedBlock[] = [];
  for (let index = 0; index < source.length; index++) {
    const opening = /^(\s*)(```+)\s*(\S*)/.exec(source[index]!);
    if (!opening) continue;
    const [, indent, fence, language] = opening;
    const above = index > 0 ? comment.exec(source[index - 1]!) : null;
    const said = (kind: string) => (above?.[1] === kind ? above[2] : undefined);
    const lines: string[] = [];
    let end = index + 1;
    while (end < source.length && source[end]!.trim() !== fence) lines.push(source[end++]!.slice(indent!.length));
    blocks.push({
      page,
      line: index + 1,
      language: language!,
      notRun: said('not run'),
      runWith: said('run with'),
      lines,
    });
    index = end;
  }
  return blocks;
}

/** A console block's steps: a `$ ` line (continued by a trailing `\`), then what it prints. */
export function walkSteps(block: FencedBlock): WalkStep[] {
  const steps: WalkStep[] = [];
  for (let index = 0; index < block.lines.length; index++) {
    const text = block.lines[index]!;
    if (text.startsWith('$ ')) {
      let command = text.slice(2);
      const at = `${block.page}:${block.line + 1 + index}`;
      while (command.endsWith('\\') && index + 1 < block.lines.length)
        command = `${command.slice(0, -1)}${block.lines[++index]!.replace(/^> /, '')}`;
      steps.push({ at, command, expected: [] });
    } else if (steps.length === 0) {
      throw new Error(`${block.page}:${block.line + 1 + index}: a console block starts with a "$ " line`);
    } else {
      steps.at(-1)!.expected.push(text);
    }
  }
  return steps;
}
