import fs = require('node:fs');
import path = require('node:path');

/*
 * `agentpay --version` and `agentpay --help`, answered from dist/build-info.json: the build
 * writes it from the same commander definition (scripts/build-info.mjs), and a test keeps the
 * two equal. This file is CommonJS on purpose (it compiles to dist/cached-answer.cjs): the
 * bin shim calls it before Node's ES module loader has started, which alone costs a fifth of
 * a bare Node start. Anything else, or a build without the file, goes to the bundle
 * (bundle-loader.cts).
 */
interface BuildInfo {
  version: string;
  /** Commander's help for `agentpay --help`, laid out for `width` columns. */
  help: { width: number; text: string };
}

function readBuildInfo(): BuildInfo | undefined {
  try {
    return JSON.parse(fs.readFileSync(path.join(__dirname, 'build-info.json'), 'utf8')) as BuildInfo;
  } catch {
    return undefined;
  }
}

/**
 * The cached help is English: it is the answer only when the language is surely English. This
 * is settings/language.ts's order (AGENTPAY_LANG, the profile's `lang`, the locale) read
 * cheaply, and a test keeps the two in step; whatever it cannot tell (an unreadable config
 * file) goes to the program, which decides.
 */
function helpIsEnglish(env: NodeJS.ProcessEnv): boolean {
  if (env.AGENTPAY_LANG) return env.AGENTPAY_LANG === 'en';
  let text: string;
  try {
    text = fs.readFileSync(path.join(env.XDG_CONFIG_HOME || path.join(require('node:os').homedir() as string, '.config'), 'agentpay', 'config.json'), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') return false;
    text = '{}';
  }
  let lang: unknown;
  try {
    const profiles = (JSON.parse(text) as { profiles?: Record<string, { lang?: unknown }> }).profiles;
    const name = env.AGENTPAY_PROFILE || 'default';
    lang = profiles && Object.hasOwn(profiles, name) ? profiles[name]?.lang : undefined;
  } catch {
    return false;
  }
  if (lang !== undefined) return lang === 'en';
  const locale = [env.LC_ALL, env.LC_MESSAGES, env.LANG].find((value) => value !== undefined && value !== '');
  return locale?.split(/[_.@-]/)[0]?.toLowerCase() !== 'ru';
}

function cachedAnswer(argv: readonly string[], stdout: NodeJS.WriteStream, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const [only] = argv;
  if (argv.length !== 1 || !['--version', '-V', '--help', '-h'].includes(only!)) return undefined;
  const info = readBuildInfo();
  if (info === undefined) return undefined;
  if (only === '--version' || only === '-V') return `${info.version}\n`;
  if (!helpIsEnglish(env)) return undefined;
  // Commander wraps help to the terminal's width, and to 80 columns when stdout is not a terminal.
  const width = stdout.isTTY ? stdout.columns : undefined;
  return (width ?? 80) === info.help.width ? info.help.text : undefined;
}

/** Prints the cached answer to this command line; false when it has none. */
function answerFromCache(argv: readonly string[], stdout: NodeJS.WriteStream): boolean {
  const answer = cachedAnswer(argv, stdout);
  if (answer === undefined) return false;
  // A closed pipe (`agentpay --help | head -1`) is not an error worth a stack trace.
  stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
  });
  stdout.write(answer);
  return true;
}

export = { answerFromCache };
