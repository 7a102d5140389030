// What every bench comparison checks of a run before its time counts: exit 0, the lines
// expected, the answer expected.

/** A run that exited 0 with `expectLines` lines of output (any number when undefined), or why not. */
export const ok = (expectLines) => (_side, result) =>
  result.code !== 0
    ? `exit ${result.code ?? result.signal}`
    : expectLines !== undefined && result.lines !== expectLines
      ? `${result.lines} lines, not ${expectLines}`
      : undefined;

/** A run that gave one line holding `text`, or why not. */
export const expectAnswer = (text) => (side, result) =>
  ok(1)(side, result) ?? (result.head.includes(text) ? undefined : `unexpected answer ${result.head}`);
