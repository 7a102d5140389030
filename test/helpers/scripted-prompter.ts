import { PassThrough, Writable } from 'node:stream';
import { CancelledError } from '../../src/errors.js';
import { Output } from '../../src/output.js';
import type { ConfirmQuestion, InputQuestion, Prompter, SelectQuestion } from '../../src/prompts.js';
import { colorLevelFor, loadStyle } from '../../src/render/style.js';

/**
 * A Prompter that answers from a script, as a person would: pick the choice whose label
 * matches, type a line (or Enter on the default), say yes or no, or press Ctrl+C. It keeps
 * every question asked, and fails the test on a question the script did not expect.
 */
export type ScriptedAnswer =
  | { select: RegExp | string; expect?: RegExp }
  | { input: string | null; expect?: RegExp }
  | { confirm: boolean; expect?: RegExp }
  | { cancel: 'select' | 'input' | 'confirm'; expect?: RegExp };

export type AskedQuestion =
  | ({ kind: 'select' } & SelectQuestion)
  | ({ kind: 'input' } & InputQuestion)
  | ({ kind: 'confirm' } & ConfirmQuestion);

export interface ScriptedPrompter extends Prompter {
  asked: AskedQuestion[];
  /** Answers not used yet. */
  remaining(): number;
}

export function scriptedPrompter(
  script: ScriptedAnswer[],
  onAsk?: (question: AskedQuestion) => void,
): ScriptedPrompter {
  const queue = [...script];
  const asked: AskedQuestion[] = [];
  const next = (question: AskedQuestion): ScriptedAnswer => {
    asked.push(question);
    onAsk?.(question);
    const answer = queue.shift();
    if (!answer) throw new Error(`unexpected ${question.kind} question: ${question.message}`);
    if (answer.expect && !answer.expect.test(question.message)) {
      throw new Error(`expected a question matching ${answer.expect}, got ${question.kind} "${question.message}"`);
    }
    if ('cancel' in answer) {
      if (answer.cancel !== question.kind)
        throw new Error(`script cancels a ${answer.cancel}, got ${question.kind} "${question.message}"`);
      throw new CancelledError();
    }
    const kind = 'select' in answer ? 'select' : 'input' in answer ? 'input' : 'confirm';
    if (kind !== question.kind) throw new Error(`script answers a ${kind}, got ${question.kind} "${question.message}"`);
    return answer;
  };
  return {
    asked,
    remaining: () => queue.length,
    async select(question) {
      const answer = next({ kind: 'select', ...question }) as { select: RegExp | string };
      const matches = question.choices.filter((choice) =>
        typeof answer.select === 'string' ? choice.value === answer.select : answer.select.test(choice.label),
      );
      if (matches.length !== 1) {
        throw new Error(
          `${matches.length} choices of "${question.message}" match ${String(answer.select)}: ${question.choices.map((c) => c.label).join(' | ')}`,
        );
      }
      return matches[0]!.value;
    },
    async input(question) {
      const answer = next({ kind: 'input', ...question }) as { input: string | null };
      // null: Enter on an empty line, which takes the default.
      const value = answer.input ?? question.initial ?? '';
      const problem = question.validate?.(value);
      if (problem !== undefined) throw new Error(`"${value}" was refused by the prompt: ${problem}`);
      return value;
    },
    async confirm(question) {
      const answer = next({ kind: 'confirm', ...question }) as { confirm: boolean };
      return answer.confirm;
    },
  };
}

/** Styles for each colour level, loaded once: capturedOutput stays synchronous. */
const styles = await Promise.all(([0, 1, 2, 3] as const).map((level) => loadStyle(level)));

/** A stream that keeps what is written to it, as a pipe a run writes to (isTTY false, no columns). */
export function keptStream(): { stream: NodeJS.WriteStream; text: () => string } {
  let text = '';
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      text += chunk.toString();
      done();
    },
  });
  return { stream: Object.assign(stream, { isTTY: false }) as unknown as NodeJS.WriteStream, text: () => text };
}

/**
 * An Output over in-memory streams, `columns` wide, without colour unless asked. Reading
 * stdout first writes the data lines Output gathers (as the command runner does at the end).
 */
export function capturedOutput(options: { columns?: number; color?: boolean } = {}) {
  const sink = () => {
    const kept = keptStream();
    kept.stream.columns = options.columns ?? 80;
    return kept;
  };
  const env: NodeJS.ProcessEnv = options.color ? { FORCE_COLOR: '1' } : { NO_COLOR: '1' };
  const [keptOut, keptErr] = [sink(), sink()];
  const [stdout, stderr] = [keptOut.stream, keptErr.stream];
  const out = new Output(
    { stdin: new PassThrough() as unknown as NodeJS.ReadStream, stdout, stderr, env },
    {
      json: false,
      style: styles[colorLevelFor(stdout, env, undefined)]!,
      errorStyle: styles[colorLevelFor(stderr, env, undefined)]!,
    },
  );
  const flushed = () => {
    out.flush();
    return keptOut.text();
  };
  return { out, stdout: flushed, stderr: keptErr.text };
}
