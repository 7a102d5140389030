import type { Interrupts } from './interrupts.js';
import { shownMessage, terminalSafeJson } from './render/sanitize.js';
import { colorLevelFor, loadStyle, type Style } from './render/style.js';
import { t } from './run-scope.js';
import type { GlobalFlags } from './settings/table.js';
import { type Spinner, startSpinner } from './spinner.js';

export interface ProcessIo {
  stdin: NodeJS.ReadStream;
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
  env: NodeJS.ProcessEnv;
  /** SIGINT and SIGTERM, heard by main.ts; none when the program runs without it. */
  interrupts?: Interrupts;
}

/** Data lines wait at most this long, or until this many characters of them are gathered. */
const maxDataDelayMs = 5;
const maxPendingData = 16 * 1024;

/** Data on stdout (JSON lines under --json), messages on stderr, each stream with its own colour.
 * Data lines are gathered briefly and written together; a message writes the data before it
 * first, so the two keep their order. Secrets are blanked where they come in (gateway/client.ts). */
export class Output {
  readonly json: boolean;
  readonly style: Style;
  readonly errorStyle: Style;
  readonly columns: number;
  /** The columns a table may take: the terminal's; off a terminal COLUMNS when set, else none (every column whole). */
  readonly tableWidth: number | undefined;
  private readonly io: ProcessIo;
  private pendingData = '';
  /** A spinner is drawing on stderr's last line: a message first clears it (the spinner redraws below). */
  private spinning = false;
  private flushTimer: NodeJS.Timeout | undefined;

  /** Decides colour for each stream; chalk is loaded only if one of them gets colour. */
  static async create(io: ProcessIo, flags: Pick<GlobalFlags, 'json' | 'color'>): Promise<Output> {
    const json = flags.json === true;
    const [style, errorStyle] = await Promise.all([
      loadStyle(json ? 0 : colorLevelFor(io.stdout, io.env, flags.color)),
      loadStyle(json ? 0 : colorLevelFor(io.stderr, io.env, flags.color)),
    ]);
    return new Output(io, { json, style, errorStyle });
  }

  constructor(io: ProcessIo, options: { json: boolean; style: Style; errorStyle: Style }) {
    this.io = io;
    this.json = options.json;
    this.style = options.style;
    this.errorStyle = options.errorStyle;
    this.columns = io.stdout.columns || Number(io.env.COLUMNS) || 80;
    const given = /^[1-9]\d{0,4}$/.test(io.env.COLUMNS ?? '') ? Number(io.env.COLUMNS) : undefined;
    this.tableWidth = io.stdout.isTTY === true ? io.stdout.columns || given || 80 : given;
  }

  /** A line of data on stdout. */
  data(text: string): void {
    const line = this.json && text.startsWith('{') ? terminalSafeJson(text) : text;
    this.pendingData += `${line}\n`;
    if (this.pendingData.length >= maxPendingData) this.flush();
    else this.flushTimer ??= setTimeout(() => this.flush(), maxDataDelayMs);
  }

  /** Writes the data lines gathered so far. */
  flush(): void {
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    if (this.pendingData === '') return;
    const chunk = this.pendingData;
    this.pendingData = '';
    this.io.stdout.write(chunk);
  }

  /** Resolves once stdout has taken the data so far (or closed): a slow reader holds a long stream back. */
  async drained(): Promise<void> {
    this.flush();
    const { stdout } = this.io;
    if (!stdout.writableNeedDrain) return;
    await new Promise<void>((resolve) => {
      const done = () => {
        for (const event of ['drain', 'close', 'error']) stdout.off(event, done);
        resolve();
      };
      for (const event of ['drain', 'close', 'error']) stdout.once(event, done);
    });
  }

  /** drained(), every 1,024 lines a command has written: a long stream waits for its reader now and then. */
  async drainedNowAndThen(lines: number): Promise<void> {
    if (lines % 1024 === 0) await this.drained();
  }

  /** Both streams are a terminal: a person watches, and a line drawn over itself (a spinner) is read, not logged. */
  get interactive(): boolean {
    return this.io.stdout.isTTY === true && this.io.stderr.isTTY === true;
  }

  /** A spinner on stderr while `text` is in progress; messages written meanwhile get lines of their own. */
  startSpinner(text: string): Spinner {
    const spinner = startSpinner(this.stderr, text, this.errorStyle);
    this.spinning = this.io.stderr.isTTY === true;
    return {
      stop: (finalLine) => {
        this.spinning = false;
        spinner.stop(finalLine);
      },
    };
  }

  /** A line kept at the foot of stderr on a terminal (a batch's progress bar), drawn over itself;
   * a message clears it first, and the caller draws it again. undefined clears it. Nothing elsewhere. */
  statusLine(text: string | undefined): void {
    if (this.io.stderr.isTTY !== true) return;
    this.io.stderr.write(`\r\x1b[2K${text ?? ''}`);
    this.spinning = text !== undefined;
  }

  private clearSpinnerLine(): void {
    if (this.spinning) this.io.stderr.write('\r\x1b[2K');
  }

  /** A message for the person, on stderr; under --json a JSON line too, so stderr parses. A message
   * for a person passes shownMessage last: whatever control a renderer let through is shown, not run. */
  note(text: string): void {
    this.flush();
    this.clearSpinnerLine();
    this.io.stderr.write(this.json ? `${terminalSafeJson(JSON.stringify({ note: text }))}\n` : `${this.shown(text)}\n`);
  }

  warn(text: string): void {
    this.flush();
    this.clearSpinnerLine();
    this.io.stderr.write(
      this.json
        ? `${terminalSafeJson(JSON.stringify({ warning: text }))}\n`
        : `${this.errorStyle.pending(t().boundary.warning)} ${this.shown(text)}\n`,
    );
  }

  /** A message as stderr shows it: no control but line breaks and (on a colour stream) our colour. */
  private shown(text: string): string {
    return shownMessage(text, this.errorStyle.enabled);
  }

  get stdin(): NodeJS.ReadStream {
    return this.io.stdin;
  }

  /** The raw stream (a prompt, a spinner); data gathered so far goes out first, to keep the order. */
  get stderr(): NodeJS.WriteStream {
    this.flush();
    return this.io.stderr;
  }

  /** The raw stream (a JUnit report on stdout); data gathered so far goes out first. */
  get stdout(): NodeJS.WriteStream {
    this.flush();
    return this.io.stdout;
  }

  get env(): NodeJS.ProcessEnv {
    return this.io.env;
  }
}
