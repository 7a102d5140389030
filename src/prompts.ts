import { CancelledError } from './errors.js';
import { shownText } from './render/sanitize.js';

// The only file that touches enquirer; prompts draw on stderr so stdout stays data. A cancel (enquirer rejects
// with '') becomes a CancelledError; questions and choices are drawn through shownText.
export interface PromptStreams {
  stdin: NodeJS.ReadStream;
  stderr: NodeJS.WriteStream;
}

type EnquirerPrompt = { run(): Promise<unknown> };
type EnquirerPromptClass = new (options: Record<string, unknown>) => EnquirerPrompt;
type EnquirerModule = Record<string, EnquirerPromptClass>;

async function loadEnquirer(): Promise<EnquirerModule> {
  const module = (await import('enquirer')) as unknown as { default: EnquirerModule };
  return module.default;
}

async function runPrompt<T>(kind: string, options: Record<string, unknown>, streams: PromptStreams): Promise<T> {
  const enquirer = await loadEnquirer();
  const PromptClass = kind === 'Filter' ? filterPromptClass(enquirer) : enquirer[kind];
  if (!PromptClass) throw new Error(`enquirer has no ${kind} prompt`);
  try {
    const prompt = new PromptClass({ ...options, stdin: streams.stdin, stdout: streams.stderr });
    toleratePauseAfterClose(prompt);
    return (await prompt.run()) as T;
  } catch (error) {
    if (error === '' || error === undefined) throw new CancelledError();
    throw error;
  }
}

// Node 24.2+ readline throws ERR_USE_AFTER_CLOSE from pause() on a closed interface, and Ctrl+C closes
// enquirer's before its clean-up pauses it; the terminal is restored by then, so only the throw is dropped
// (enquirer issue 483).
function toleratePauseAfterClose(prompt: EnquirerPrompt): void {
  const target = prompt as unknown as { emit(event: string, ...args: unknown[]): boolean };
  const emit = target.emit.bind(target);
  target.emit = (event, ...args) => {
    try {
      return emit(event, ...args);
    } catch (error) {
      if (event === 'close' && (error as { code?: unknown }).code === 'ERR_USE_AFTER_CLOSE') return true;
      throw error;
    }
  };
}

// Enquirer's AutoComplete highlights with `new RegExp(<typed>)` (so `(` throws) and draws no pointer: this
// subclass draws the list as Select does; filtering stays a substring match.
type SelectMethods = { render(): Promise<void>; pointer(...args: unknown[]): unknown };
let filterPrompt: EnquirerPromptClass | undefined;
function filterPromptClass(enquirer: EnquirerModule): EnquirerPromptClass {
  if (filterPrompt) return filterPrompt;
  const AutoComplete = enquirer.AutoComplete as unknown as new (
    options: Record<string, unknown>,
  ) => EnquirerPrompt & SelectMethods;
  const select = (enquirer.Select as unknown as { prototype: SelectMethods }).prototype;
  filterPrompt = class FilterPrompt extends AutoComplete {
    override render(): Promise<void> {
      return select.render.call(this);
    }
    override pointer(...args: unknown[]): unknown {
      return select.pointer.apply(this, args);
    }
  };
  return filterPrompt;
}

// Ctrl+U clears the line up to the cursor, as readline does: enquirer calls the key `undo` and looks it up in a
// prompt's options first.
const lineKeys = {
  undo(this: { input: string; cursor: number; render(): unknown }) {
    this.input = this.input.slice(this.cursor);
    this.cursor = 0;
    return this.render();
  },
};

export function askPassword(message: string, streams: PromptStreams): Promise<string> {
  return runPrompt<string>('Password', { name: 'password', message, ...lineKeys }, streams);
}

/** One choice of a select: `value` comes back, `label` is shown (one line, already fitted). */
export interface PromptChoice {
  value: string;
  label: string;
}

export interface SelectQuestion {
  message: string;
  choices: readonly PromptChoice[];
  /** The value the cursor starts on; the first choice by default. */
  initial?: string | undefined;
  /** Typing filters the list (for long lists); otherwise digits jump to a choice. */
  filter?: boolean;
  /** At most this many choices are drawn at once; the list scrolls. */
  limit?: number;
}

export interface InputQuestion {
  message: string;
  /** Shown dimmed; Enter on an empty line takes it. */
  initial?: string | undefined;
  /** An error message for a bad answer, or undefined for a good one. */
  validate?: (value: string) => string | undefined;
}

export interface ConfirmQuestion {
  message: string;
  /** Enter alone answers this; No unless said otherwise. */
  initial?: boolean;
  /** How the answer is shown once given: "yes" and "no" unless said otherwise (in the user's language). */
  answers?: { yes: string; no: string } | undefined;
}

// The questions an interactive command asks, an interface so tests can drive a flow; each rejects with
// CancelledError on Ctrl+C or Esc.
export interface Prompter {
  select(question: SelectQuestion): Promise<string>;
  input(question: InputQuestion): Promise<string>;
  confirm(question: ConfirmQuestion): Promise<boolean>;
}

/** What the `format` hooks below see of an enquirer prompt. */
interface PromptState {
  state: { submitted: boolean; cancelled?: boolean };
  styles: { primary(text: string): string };
  focused?: { name: string } | undefined;
  /** The terminal's width, as enquirer reads it. */
  width: number;
  input?: string;
  value?: unknown;
}

const answered = (prompt: PromptState) => prompt.state.submitted && !prompt.state.cancelled;
const promptBase = (message: string, color: boolean) => ({
  name: 'answer',
  message: shownText(message),
  styles: { enabled: color },
});

/** A select (a filter past a few choices), answered with the choice's label, never its value. */
function selectPrompt(
  question: Parameters<Prompter['select']>[0],
  streams: PromptStreams & { color: boolean },
): Promise<string> {
  const labels = new Map(question.choices.map((choice) => [choice.value, shownText(choice.label)]));
  const choices = question.choices.map((choice) => ({ name: choice.value, message: shownText(choice.label) }));
  const initial =
    question.initial === undefined
      ? 0
      : Math.max(
          0,
          question.choices.findIndex((c) => c.value === question.initial),
        );
  const filter = question.filter === true;
  return runPrompt<string>(
    filter ? 'Filter' : 'Select',
    {
      ...promptBase(question.message, streams.color),
      choices,
      initial,
      ...(question.limit === undefined ? {} : { limit: question.limit }),
      // Once answered, show the label (column padding squeezed, cut to stay on one line
      // after "✔ <message> · "), not the internal value.
      format(this: PromptState) {
        if (answered(this) && this.focused) {
          const label = (labels.get(this.focused.name) ?? '').replace(/ {3,}/g, '  ');
          const room = Math.max(10, this.width - question.message.length - 6);
          return this.styles.primary(label.length > room ? `${label.slice(0, room - 1)}…` : label);
        }
        return filter ? (this.input ?? '') : '';
      },
    },
    streams,
  );
}

/** A Prompter drawn by enquirer on `streams.stderr`; `color: false` draws it without colour. */
export function terminalPrompter(streams: PromptStreams & { color: boolean }): Prompter {
  const common = (message: string) => promptBase(message, streams.color);
  return {
    select: (question) => selectPrompt(question, streams),
    async input(question) {
      const { validate } = question;
      return runPrompt<string>(
        'Input',
        {
          ...common(question.message),
          ...lineKeys,
          ...(question.initial === undefined ? {} : { initial: question.initial }),
          ...(validate ? { validate: (value: string) => validate(value) ?? true } : {}),
        },
        streams,
      );
    },
    async confirm(question) {
      return runPrompt<boolean>(
        'Confirm',
        {
          ...common(question.message),
          initial: question.initial ?? false,
          // Enquirer would show "false" next to the question before it is answered.
          format(this: PromptState) {
            const answers = question.answers ?? { yes: 'yes', no: 'no' };
            return answered(this) ? this.styles.primary(this.value === true ? answers.yes : answers.no) : '';
          },
        },
        streams,
      );
    },
  };
}
