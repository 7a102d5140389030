import { CancelledError } from './errors.js';

/**
 * The only file that touches enquirer. Prompts draw on stderr so stdout stays data.
 * Enquirer rejects a cancelled prompt (Ctrl+C, Esc) with an empty string rather than an
 * Error; that becomes a CancelledError here, and never a process exit.
 */
export interface PromptStreams {
  stdin: NodeJS.ReadStream;
  stderr: NodeJS.WriteStream;
}

type EnquirerPrompt = { run(): Promise<unknown> };
type EnquirerModule = Record<string, new (options: Record<string, unknown>) => EnquirerPrompt>;

async function loadEnquirer(): Promise<EnquirerModule> {
  const module = (await import('enquirer')) as unknown as { default: EnquirerModule };
  return module.default;
}

export async function runPrompt<T>(kind: string, options: Record<string, unknown>, streams: PromptStreams): Promise<T> {
  const enquirer = await loadEnquirer();
  const PromptClass = enquirer[kind];
  if (!PromptClass) throw new Error(`enquirer has no ${kind} prompt`);
  try {
    return (await new PromptClass({ ...options, stdin: streams.stdin, stdout: streams.stderr }).run()) as T;
  } catch (error) {
    if (error === '' || error === undefined) throw new CancelledError();
    throw error;
  }
}

export function askPassword(message: string, streams: PromptStreams): Promise<string> {
  return runPrompt<string>('Password', { name: 'password', message }, streams);
}
