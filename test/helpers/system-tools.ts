import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

/**
 * The system tools some tests drive, from Debian's packages (`.ci/run` installs them when
 * missing): a real terminal (tmux), real shells for completion, a real browser for the HTML
 * report, a mount namespace (unshare) and a tmpfs (mount) for a read-only or a full disk. On a
 * machine with only Node, `npm test` skips the tests that need a missing one and its closing
 * line says which and how to install them (summary-reporter.ts); under `CI=true` a missing tool
 * fails the run instead, so CI never passes by skipping.
 */
export const systemTools = {
  tmux: { names: ['tmux'], package: 'tmux' },
  bash: { names: ['bash'], package: 'bash' },
  zsh: { names: ['zsh'], package: 'zsh' },
  fish: { names: ['fish'], package: 'fish' },
  chromium: { names: ['chromium', 'chromium-browser'], package: 'chromium' },
  unshare: { names: ['unshare'], package: 'util-linux' },
  mount: { names: ['mount'], package: 'mount' },
} as const;
export type SystemTool = keyof typeof systemTools;

/** The executable a tool is known by on PATH, if any. */
export function toolPath(tool: SystemTool): string | undefined {
  for (const name of systemTools[tool].names) {
    for (const directory of (process.env.PATH ?? '').split(delimiter)) {
      const candidate = join(directory, name);
      try {
        accessSync(candidate, constants.X_OK);
        return candidate;
      } catch {
        // not here
      }
    }
  }
  return undefined;
}

export const missingTools = (tools: readonly SystemTool[]): SystemTool[] =>
  tools.filter((tool) => toolPath(tool) === undefined);

/** What installs the tools: Debian's packages that hold them. */
export const installCommand = (tools: readonly SystemTool[]) =>
  `apt-get install -y ${[...new Set(tools.map((tool) => systemTools[tool].package))].join(' ')}`;

/**
 * Whether a test file that needs these tools is to be skipped: true outside CI when one is
 * missing (describe.skipIf), false when all are here; under CI=true a missing one throws, and
 * the file fails saying what to install.
 */
export function skipWithout(...tools: SystemTool[]): boolean {
  const missing = missingTools(tools);
  if (missing.length === 0) return false;
  if (process.env.CI === 'true')
    throw new Error(`these tests need ${missing.join(', ')}: ${installCommand(missing)} (.ci/run installs them)`);
  return true;
}
