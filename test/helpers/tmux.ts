import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { agentpayProcess } from './cli.js';

/**
 * A real pseudo-terminal for end-to-end tests: a detached tmux session on a socket of its
 * own, running one shell command with exactly the environment given (`env -i`), driven by
 * send-keys and read with capture-pane. The pane stays after the command ends, so the
 * last screen and the `EXIT=<code>` line printed after it can be read.
 */
const run = promisify(execFile);

let sessions = 0;

export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/** `node bin/agentpay.js <args>` (or the single executable, test/helpers/cli.ts) as a shell command. */
export function agentpayCommand(args: readonly string[]): string {
  const { file, args: all } = agentpayProcess(args);
  return [file, ...all].map(shellQuote).join(' ');
}

export interface TerminalOptions {
  /** A shell command (bash); see agentpayCommand. */
  command: string;
  env: Record<string, string>;
  cwd?: string;
  columns?: number;
  rows?: number;
}

export class TerminalSession {
  private readonly socket: string;
  private readonly dir: string;
  private readonly config: string;
  private socketPath: string | undefined;
  private killed = false;

  private constructor(socket: string, dir: string) {
    this.socket = socket;
    this.dir = dir;
    this.config = join(dir, 'tmux.conf');
  }

  static async start(options: TerminalOptions): Promise<TerminalSession> {
    const dir = mkdtempSync(join(tmpdir(), 'agentpay-tmux-'));
    const socket = `agentpay-test-${process.pid}-${++sessions}-${Math.random().toString(36).slice(2, 8)}`;
    const session = new TerminalSession(socket, dir);
    // The pane outlives its command so that the final screen can still be read.
    writeFileSync(session.config, 'set -g remain-on-exit on\nset -g history-limit 5000\n');
    const env = { TERM: 'screen-256color', ...options.env };
    const assignments = Object.entries(env).map(([name, value]) => shellQuote(`${name}=${value}`));
    const script = `set -o pipefail; ${options.command}; echo EXIT=$?`;
    const paneCommand = [
      ...(options.cwd ? [`cd ${shellQuote(options.cwd)} &&`] : []),
      'exec env -i',
      ...assignments,
      'bash --norc --noprofile -c',
      shellQuote(script),
    ].join(' ');
    await session.tmux(
      'new-session',
      '-d',
      '-x',
      String(options.columns ?? 100),
      '-y',
      String(options.rows ?? 40),
      paneCommand,
    );
    session.socketPath = (await session.tmux('display-message', '-p', '#{socket_path}')).trim() || undefined;
    return session;
  }

  private async tmux(...args: string[]): Promise<string> {
    const clientEnv: NodeJS.ProcessEnv = { ...process.env, TERM: process.env.TERM || 'xterm-256color' };
    delete clientEnv.TMUX;
    delete clientEnv.TMUX_PANE;
    const { stdout } = await run('tmux', ['-L', this.socket, '-f', this.config, ...args], { env: clientEnv });
    return stdout;
  }

  /** The screen and its scrollback, as text. `escapes` keeps colour and other attributes. */
  async screen(options: { escapes?: boolean } = {}): Promise<string> {
    return this.tmux('capture-pane', '-p', '-S', '-', ...(options.escapes ? ['-e'] : []));
  }

  /** The pane's title, as the program in it may set it (`ESC ] 2; … BEL`, which tmux takes for OSC 0 too). */
  async title(): Promise<string> {
    return (await this.tmux('display-message', '-p', '#{pane_title}')).trim();
  }

  /** Polls the screen until `pattern` shows, or fails after `timeoutMs` with the screen. */
  async waitFor(pattern: string | RegExp, timeoutMs = 15_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    let screen = '';
    while (Date.now() < deadline) {
      screen = await this.screen();
      if (typeof pattern === 'string' ? screen.includes(pattern) : pattern.test(screen)) return screen;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`timed out waiting for ${String(pattern)}; the screen:\n${screen.trimEnd()}`);
  }

  /** tmux key names: Enter, Down, Escape, C-c, y. */
  async press(...keys: string[]): Promise<void> {
    for (const key of keys) await this.tmux('send-keys', key);
  }

  /** Text typed as is. */
  async type(text: string): Promise<void> {
    await this.tmux('send-keys', '-l', text);
  }

  /**
   * The process id of the command the pane's shell runs (its one child), to send it a signal
   * as a service manager would. Linux: read from /proc.
   */
  async commandPid(): Promise<number> {
    const shell = (await this.tmux('display-message', '-p', '#{pane_pid}')).trim();
    const children = readFileSync(`/proc/${shell}/task/${shell}/children`, 'utf8').trim().split(/\s+/);
    if (children.length !== 1 || !/^\d+$/.test(children[0]!))
      throw new Error(`the pane's shell ${shell} runs ${JSON.stringify(children)}, not one command`);
    return Number(children[0]);
  }

  /** Waits for the command to end and returns its exit code. */
  async exitCode(timeoutMs = 15_000): Promise<number> {
    const screen = await this.waitFor(/^EXIT=\d+$/m, timeoutMs);
    return Number(/^EXIT=(\d+)$/m.exec(screen)?.[1]);
  }

  async kill(): Promise<void> {
    if (this.killed) return;
    this.killed = true;
    await this.tmux('kill-server').catch(() => undefined);
    // tmux leaves its socket file behind; it is ours alone, by its unique name.
    if (this.socketPath) rmSync(this.socketPath, { force: true });
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/**
 * The terminals one test file starts: each is killed by killAll (afterAll) if a test left it
 * running; finish waits for the command's exit code and closes the terminal.
 */
export class Terminals {
  private readonly open = new Set<TerminalSession>();

  constructor(private readonly defaults: Omit<TerminalOptions, 'command' | 'env'>) {}

  async start(options: TerminalOptions): Promise<TerminalSession> {
    const session = await TerminalSession.start({ ...this.defaults, ...options });
    this.open.add(session);
    return session;
  }

  /** agentpay with these arguments, in a terminal of its own. */
  run(args: readonly string[], env: Record<string, string>): Promise<TerminalSession> {
    return this.start({ command: agentpayCommand(args), env });
  }

  async finish(session: TerminalSession): Promise<number> {
    try {
      return await session.exitCode();
    } finally {
      await session.kill();
      this.open.delete(session);
    }
  }

  async killAll(): Promise<void> {
    await Promise.all([...this.open].map((session) => session.kill()));
    this.open.clear();
  }
}
