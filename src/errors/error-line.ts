import { shownMessage, terminalSafeJson } from '../render/sanitize.js';
import type { ExitCodeValue } from './exit-codes.js';

/** How a command ended, as its last words on stderr say it: the same fields for every kind of error. */
export interface ErrorLine {
  exitCode: ExitCodeValue;
  /** The error's class (InterruptedError, UsageError, ...), or InternalError for a bug. */
  type: string;
  /** The desk rule that refused a purchase (DeskRuleRefusedError), for a script. */
  rule?: string | undefined;
  message: string;
  hint?: string | undefined;
}

/** The one JSON line `{"error":{exitCode,type,rule?,message,hint?}}` under --json, else
 * `agentpay: <prefix><message>` and the hint indented below it. Controls in a message are shown, never run. */
export function errorLines(error: ErrorLine, options: { json: boolean; prefix?: string }): string {
  const { exitCode, type, rule, message, hint } = error;
  if (options.json) {
    const fields = { exitCode, type, ...(rule ? { rule } : {}), message, ...(hint ? { hint } : {}) };
    return `${terminalSafeJson(JSON.stringify({ error: fields }))}\n`;
  }
  const shown = (text: string) => shownMessage(text, false);
  return `agentpay: ${options.prefix ?? ''}${shown(message)}\n${hint ? `  ${shown(hint)}\n` : ''}`;
}
