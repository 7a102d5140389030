import type { GlobalFlags } from './config.js';
import { colorLevelFor, loadStyle, type Style } from './render/style.js';

export interface ProcessIo {
  stdin: NodeJS.ReadStream;
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
  env: NodeJS.ProcessEnv;
}

/** Data lines wait at most this long, or until there are this many bytes of them. */
const maxDataDelayMs = 5;
const maxPendingData = 16 * 1024;

/**
 * Where everything a command says goes: data on stdout (JSON lines under --json), every
 * message on stderr, each stream with its own colour decision.
 *
 * Data lines are gathered for a few milliseconds (or 16 KiB) and written together, so a batch
 * of thousands of lines costs a few hundred writes rather than one each, while its lines still
 * stream as answers arrive. A message on stderr first writes the data before it, so the two
 * keep their order on a terminal; the command runner flushes what is left when a command ends
 * (cli.ts), so a single answer is not kept waiting.
 */
export class Output {
  readonly json: boolean;
  readonly style: Style;
  readonly errorStyle: Style;
  readonly columns: number;
  private readonly io: ProcessIo;
  private pendingData = '';
  private flushTimer: NodeJS.Timeout | undefined;

  /** Decides colour for each stream; chalk is loaded only if one of them gets colour. */
  static async create(io: ProcessIo, flags: Pick<GlobalFlags, 'json' | 'color'>): Promise<Output> {
    const json = flags.json === true;
    const [style, errorStyle] = await Promise.all([
      loadStyle(json ? 0 : colorLevelFor(io.stdout, io.env, flags.color)),
      loadStyle(colorLevelFor(io.stderr, io.env, flags.color)),
    ]);
    return new Output(io, { json, style, errorStyle });
  }

  constructor(io: ProcessIo, options: { json: boolean; style: Style; errorStyle: Style }) {
    this.io = io;
    this.json = options.json;
    this.style = options.style;
    this.errorStyle = options.errorStyle;
    this.columns = io.stdout.columns || Number(io.env.COLUMNS) || 80;
  }

  /** A line of data on stdout. */
  data(text: string): void {
    this.pendingData += `${text}\n`;
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

  /** A message for the person, on stderr. */
  note(text: string): void {
    this.flush();
    this.io.stderr.write(`${text}\n`);
  }

  warn(text: string): void {
    this.flush();
    this.io.stderr.write(`${this.errorStyle.pending('warning:')} ${text}\n`);
  }

  get stdin(): NodeJS.ReadStream {
    return this.io.stdin;
  }

  get stderr(): NodeJS.WriteStream {
    return this.io.stderr;
  }

  get stdout(): NodeJS.WriteStream {
    return this.io.stdout;
  }

  get env(): NodeJS.ProcessEnv {
    return this.io.env;
  }
}
