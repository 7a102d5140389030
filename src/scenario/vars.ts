import { type Suite, varNamePattern } from './file.js';

// `${var.name}` from `--var name=value`, then AGENTPAY_VAR_<NAME>, then the file's `vars:`, so one suite runs
// against the sandbox and a test gateway unedited.
const varEnvPrefix = 'AGENTPAY_VAR_';

export class VarError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'VarError';
  }
}

export function parseVarFlags(flags: readonly string[]): Map<string, string> {
  const vars = new Map<string, string>();
  for (const flag of flags) {
    const equals = flag.indexOf('=');
    const name = equals < 0 ? flag : flag.slice(0, equals);
    if (equals < 0 || !varNamePattern.test(name)) {
      throw new VarError(
        `--var ${JSON.stringify(flag)} is not name=value (a name is letters, digits and _, such as service=101)`,
      );
    }
    vars.set(name, flag.slice(equals + 1));
  }
  return vars;
}

/** The vars a suite sees; throws VarError naming every one it uses that nothing sets. */
export function varsFor(suite: Suite, flags: ReadonlyMap<string, string>, env: NodeJS.ProcessEnv): Map<string, string> {
  const vars = new Map(Object.entries(suite.vars));
  for (const name of suite.varsUsed) {
    const fromEnv = env[`${varEnvPrefix}${name.toUpperCase()}`];
    if (fromEnv !== undefined) vars.set(name, fromEnv);
  }
  for (const [name, value] of flags) vars.set(name, value);
  const missing = [...suite.varsUsed].filter((name) => !vars.has(name));
  if (missing.length > 0) {
    throw new VarError(
      `${suite.file} needs ${missing.map((name) => `--var ${name}=<value>`).join(' ')} (or ${missing.map((name) => `${varEnvPrefix}${name.toUpperCase()}`).join(', ')})`,
    );
  }
  return vars;
}
