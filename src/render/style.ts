// Colour decided once per stream: --no-color and NO_COLOR off (chalk does not read NO_COLOR), FORCE_COLOR on,
// else a terminal gets it. Chalk is loaded only when some stream has colour.
export type ColorLevel = 0 | 1 | 2 | 3;

export function colorLevelFor(
  stream: { isTTY?: boolean },
  env: NodeJS.ProcessEnv,
  colorFlag: boolean | undefined,
): ColorLevel {
  if (colorFlag === false) return 0;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return 0;
  const force = env.FORCE_COLOR;
  if (force !== undefined) {
    if (force === '0' || force === 'false') return 0;
    if (force === '2' || force === '3') return Number(force) as ColorLevel;
    return 1;
  }
  if (!stream.isTTY || env.TERM === 'dumb') return 0;
  if (env.COLORTERM === 'truecolor' || env.COLORTERM === '24bit') return 3;
  return env.TERM?.includes('256') ? 2 : 1;
}

/** The few roles colour plays; renderers use these, never chalk directly. */
export interface Style {
  enabled: boolean;
  success(text: string): string;
  failure(text: string): string;
  pending(text: string): string;
  dim(text: string): string;
  strong(text: string): string;
  heading(text: string): string;
}

const same = (text: string) => text;

/** No colour: what chalk at level 0 returns, without loading chalk. */
export const plainStyle: Style = {
  enabled: false,
  success: same,
  failure: same,
  pending: same,
  dim: same,
  strong: same,
  heading: same,
};

export async function loadStyle(level: ColorLevel): Promise<Style> {
  if (level === 0) return plainStyle;
  const { Chalk } = await import('chalk');
  const chalk = new Chalk({ level });
  return {
    enabled: level > 0,
    success: (text) => chalk.green(text),
    failure: (text) => chalk.red(text),
    pending: (text) => chalk.yellow(text),
    dim: (text) => chalk.dim(text),
    strong: (text) => chalk.bold(text),
    heading: (text) => chalk.bold.cyan(text),
  };
}
