import type { GlobalFlags } from './config.js';
import { colorLevelFor, createStyle, type Style } from './render/style.js';
import { redactSecrets } from './secrets.js';

export interface ProcessIo {
  stdin: NodeJS.ReadStream;
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
  env: NodeJS.ProcessEnv;
}

/**
 * Where everything a command says goes: data on stdout (JSON lines under --json), every
 * message on stderr, each stream with its own colour decision. Every line is scrubbed of the
 * process's secrets on its way out (a gateway may echo the password in a Message).
 */
export class Output {
  readonly json: boolean;
  readonly style: Style;
  readonly errorStyle: Style;
  readonly columns: number;
  private readonly io: ProcessIo;

  constructor(io: ProcessIo, flags: Pick<GlobalFlags, 'json' | 'color'>) {
    this.io = io;
    this.json = flags.json === true;
    this.style = createStyle(this.json ? 0 : colorLevelFor(io.stdout, io.env, flags.color));
    this.errorStyle = createStyle(this.json ? 0 : colorLevelFor(io.stderr, io.env, flags.color));
    this.columns = io.stdout.columns || Number(io.env.COLUMNS) || 80;
  }

  /** A line of data on stdout. */
  data(text: string): void {
    this.io.stdout.write(`${redactSecrets(text)}\n`);
  }

  /** A message for the person, on stderr; under --json a JSON line too, so stderr parses. */
  note(text: string): void {
    this.io.stderr.write(this.json ? `${JSON.stringify({ note: redactSecrets(text) })}\n` : `${redactSecrets(text)}\n`);
  }

  warn(text: string): void {
    const clean = redactSecrets(text);
    this.io.stderr.write(this.json ? `${JSON.stringify({ warning: clean })}\n` : `${this.errorStyle.pending('warning:')} ${clean}\n`);
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
