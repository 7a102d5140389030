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

function cachedAnswer(argv: readonly string[], stdout: NodeJS.WriteStream): string | undefined {
  const [only] = argv;
  if (argv.length !== 1 || !['--version', '-V', '--help', '-h'].includes(only!)) return undefined;
  const info = readBuildInfo();
  if (info === undefined) return undefined;
  if (only === '--version' || only === '-V') return `${info.version}\n`;
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
