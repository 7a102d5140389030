import type { Command } from 'commander';
import { completeWords } from './engine.js';
import { completionValues } from './values.js';

/**
 * The answer to a completion request, the hidden command line the shell scripts run
 * (`agentpay __complete <words...>`, scripts.ts), on stdout: one candidate a line, `value<TAB>description`
 * (a description may be empty), or the one line `:files` for "complete a file name here".
 * Values never start with ':' (commands, options, choices, ids).
 */
export function answerCompletionRequest(program: Command, words: readonly string[], io: { stdout: { write(text: string): unknown }; env: NodeJS.ProcessEnv }): void {
  const answer = completeWords(program, words, completionValues(io.env));
  if (answer.files) {
    io.stdout.write(':files\n');
    return;
  }
  const lines = answer.candidates.map(({ value, description }) => `${value}\t${description.replace(/[\t\n]/g, ' ')}\n`);
  io.stdout.write(lines.join(''));
}
