/** The exit codes, a contract scripts depend on (README "Exit codes"); each error class names its own. */
export const ExitCode = {
  success: 0,
  declined: 1,
  usage: 2,
  pendingOrUnknown: 3,
  unreachable: 4,
  notUnderstood: 5,
  /** The journal (or another local file agentpay keeps) cannot be read or written. */
  localStorage: 6,
  /** Refused by one of the desk's rules (a duplicate, a limit, an approval needed, no open shift): nothing was sent. */
  deskRule: 7,
  /** A bug: an error no class describes (EX_SOFTWARE of sysexits.h). */
  internal: 70,
  /** Stopped by SIGINT (Ctrl+C), as a shell reports a process that signal ended (128 + 2). */
  interrupted: 130,
  /** Stopped by SIGTERM (cron, a service manager, `kill`), as a shell reports it (128 + 15). */
  terminated: 143,
} as const;
export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

/** How commander ends a run that showed help or the version, with nothing wrong (main.ts exits 0). */
export const commanderDoneCodes: ReadonlySet<string> = new Set([
  'commander.helpDisplayed',
  'commander.version',
  'commander.help',
]);

/** The signals that stop a command (main.ts listens for them); every other one keeps Node's default. */
export type StopSignal = 'SIGINT' | 'SIGTERM';

export function exitCodeOfSignal(signal: StopSignal): ExitCodeValue {
  return signal === 'SIGTERM' ? ExitCode.terminated : ExitCode.interrupted;
}

/** A batch's exit code: the most severe of its items (70 > 6 > 5 > 4 > 3 > 7 > 2 > 1 > 143 > 130 > 0). */
export function mostSevere(codes: Iterable<ExitCodeValue>): ExitCodeValue {
  const order: readonly ExitCodeValue[] = [0, 130, 143, 1, 2, 7, 3, 4, 5, 6, 70];
  const rank = (code: ExitCodeValue) => order.indexOf(code);
  let worst: ExitCodeValue = ExitCode.success;
  for (const code of codes) if (rank(code) > rank(worst)) worst = code;
  return worst;
}
