import { spawn } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { sandboxCredentials } from '../../src/sandbox/catalogue.js';
import { startSandbox } from '../../src/sandbox/server.js';
import { testPath } from '../helpers/cli.js';
import { passwordOf, roleUrl } from '../helpers/desk-roles.js';
import {
  commandLanguages,
  documentedPages,
  type FencedBlock,
  fencedBlocks,
  type WalkStep,
  walkSteps,
} from '../helpers/doc-examples.js';
import { type IdMap, type Loose, matchOutput, newIdMap, withActualIds } from '../helpers/doc-output.js';
import { sandboxCodeEnv } from '../helpers/gateway-env.js';
import { freshDatabase, startPostgres } from '../helpers/postgres.js';
import { agentpayCommand } from '../helpers/tmux.js';

/**
 * Every walk-through of README.md and docs/*.md (a ```console block) runs word for word, in the
 * order printed, from a fresh HOME and a directory holding a copy of examples/, and prints what
 * the page shows (docs/development.md#examples-in-the-docs); `agentpay` is this clone's
 * bin/agentpay.js. Each other block of commands says why it is not run, and they are counted here.
 */
const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const blocks = documentedPages(repoRoot).flatMap((page) => fencedBlocks(repoRoot, page));
const walkThroughs = blocks.filter((block) => block.language === 'console' && block.notRun === undefined);

/** The blocks of commands not run, by page: a new one is counted here on purpose, never by accident. */
const notRunByPage: Record<string, number> = {
  'README.md': 5,
  'docs/commands.md': 4,
  'docs/completion.md': 1,
  'docs/desk-safety.md': 5,
  'docs/development.md': 1,
  'docs/metrics.md': 1,
  'docs/performance.md': 1,
  'docs/replay.md': 1,
  'docs/scenarios.md': 1,
  'docs/team-ledger.md': 1,
};

interface Desk {
  cwd: string;
  env: Record<string, string>;
  loose: Loose;
}

/** A fresh HOME, a working directory with the examples, and `agentpay` on PATH. */
function freshDesk(loose: Loose = {}): Desk {
  const home = mkdtempSync(join(tmpdir(), 'agentpay-docs-'));
  const bin = join(home, 'bin');
  mkdirSync(bin);
  writeFileSync(join(bin, 'agentpay'), `#!/bin/sh\nexec ${agentpayCommand([])} "$@"\n`);
  chmodSync(join(bin, 'agentpay'), 0o755);
  const cwd = join(home, 'desk');
  const written = (path: string) => path.endsWith('.results.csv');
  cpSync(join(repoRoot, 'examples'), join(cwd, 'examples'), { recursive: true, filter: (path) => !written(path) });
  // A reader's terminal: 80 columns, as the pages' tables are drawn.
  const env = { PATH: `${bin}:${testPath()}`, HOME: home, LANG: 'C.UTF-8', NO_COLOR: '1', COLUMNS: '80' };
  return { cwd, env, loose };
}

/** One typed line through sh, stdout and stderr in one stream as a terminal shows them. */
function typed(command: string, desk: Desk): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const child = spawn('sh', ['-c', `exec 2>&1\n${command}`], {
      cwd: desk.cwd,
      env: desk.env,
      stdio: ['ignore', 'pipe', 'inherit'],
      // A step that hangs ends here, not at the test's time-out with the child left running.
      timeout: 60_000,
      killSignal: 'SIGKILL',
    });
    let printed = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (printed += chunk));
    child.on('error', reject);
    child.on('close', () => {
      const text = printed.replace(/\n$/, '');
      resolve(text === '' ? [] : text.split('\n'));
    });
  });
}

async function runStep(step: WalkStep, desk: Desk, ids: IdMap): Promise<IdMap> {
  const command = withActualIds(step.command, ids);
  const printed = await typed(command, desk);
  const bound = matchOutput(step.expected, printed, ids, desk.loose);
  if (!bound) {
    const shown = ['shown:', ...step.expected, 'printed:', ...printed].join('\n  ');
    expect.fail(`${step.at}: \`${command}\` does not print what the page shows\n  ${shown}`);
  }
  return bound;
}

const pagesWalked = [...new Set(walkThroughs.map((block) => block.page))];

/** A desk of two operators, anna and boris (a supervisor), whose passwords are in the HOME's ~/.pgpass. */
function deskOfOperators(adminUrl: string, home: string): Record<string, string> {
  const { port } = new URL(adminUrl);
  const roles = ['anna', 'boris'];
  const pgpass = roles.map((role) => `127.0.0.1:${port}:*:${role}:${passwordOf(role)}\n`).join('');
  writeFileSync(join(home, '.pgpass'), pgpass, { mode: 0o600 });
  return {
    ADMIN_LEDGER: adminUrl,
    ANNA_LEDGER: roleUrl(adminUrl, 'anna'),
    BORIS_LEDGER: roleUrl(adminUrl, 'boris'),
    ANNA_PASSWORD: passwordOf('anna'),
    BORIS_PASSWORD: passwordOf('boris'),
  };
}

/**
 * What a team ledger's walk-through runs with: a fresh PostgreSQL database (in AGENTPAY_LEDGER, or
 * for a desk of operators its administrator's and each role's URLs), and the sandbox reached by URL.
 */
async function withTeamLedger<T>(
  kind: 'a team ledger' | 'a desk of operators',
  home: string,
  run: (env: Record<string, string>) => Promise<T>,
): Promise<T> {
  const [server, sandbox] = await Promise.all([startPostgres(), startSandbox()]);
  try {
    const gateway = {
      AGENTPAY_BASE_URL: sandbox.baseUrl,
      AGENTPAY_AGENT_ID: sandboxCredentials.agentId,
      AGENTPAY_PASSWORD: sandboxCredentials.password,
      ...sandboxCodeEnv,
    };
    const ledger = await freshDatabase(server);
    const people = kind === 'a team ledger' ? { AGENTPAY_LEDGER: ledger } : deskOfOperators(ledger, home);
    return await run({ ...gateway, ...people });
  } finally {
    await Promise.all([server.remove(), sandbox.close()]);
  }
}

async function walkBlock(block: FencedBlock, desk: Desk, ids: IdMap): Promise<IdMap> {
  let bound = ids;
  for (const step of walkSteps(block)) bound = await runStep(step, desk, bound);
  return bound;
}

/** A page's walk-throughs in order; the ids a page shows are its own. */
async function walkPage(page: string, desk: Desk): Promise<void> {
  let ids = newIdMap();
  for (const block of walkThroughs.filter((walk) => walk.page === page)) {
    const kind = block.runWith;
    if (kind === undefined) ids = await walkBlock(block, desk, ids);
    else if (kind === 'a team ledger' || kind === 'a desk of operators') {
      const home = desk.env.HOME!;
      ids = await withTeamLedger(kind, home, (env) => walkBlock(block, { ...desk, env: { ...desk.env, ...env } }, ids));
    } else expect.fail(`${block.page}:${block.line}: "run with: ${kind}" is not known`);
  }
}

describe.each(pagesWalked)('the walk-throughs of %s', (page) => {
  it('run in order from a fresh HOME and print what the page shows', { timeout: 180_000 }, async () => {
    await walkPage(page, freshDesk());
  });
});

describe('the walk-throughs of every page', () => {
  // A reader going from the README through docs/ in one HOME: no example is refused for another's payment.
  it('run one page after another in one HOME, as a reader follows them', { timeout: 300_000 }, async () => {
    const desk = freshDesk({ requestIds: true });
    for (const page of pagesWalked) await walkPage(page, desk);
  });
});

describe('the blocks of commands in the docs', () => {
  const ofCommands = blocks.filter((block) => commandLanguages.has(block.language));
  const where = (block: FencedBlock) => `${block.page}:${block.line}`;

  it('are walk-throughs, or say why they are not run; those not run are counted', () => {
    const unexplained = ofCommands.filter((block) => block.language !== 'console' && !block.notRun);
    expect(unexplained.map(where)).toEqual([]);
    const counted: Record<string, number> = {};
    for (const block of ofCommands.filter((command) => command.notRun !== undefined))
      counted[block.page] = (counted[block.page] ?? 0) + 1;
    expect(counted).toEqual(notRunByPage);
    expect(walkThroughs.length).toBeGreaterThan(5);
  });

  it('type their commands only in console blocks', () => {
    const prompted = blocks.filter(
      (block) => block.language !== 'console' && block.lines.some((line) => line.startsWith('$ ')),
    );
    expect(prompted.map(where)).toEqual([]);
  });
});
