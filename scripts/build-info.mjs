#!/usr/bin/env node
// Build step after tsc: writes dist/build-info.json, the answers to `agentpay --version` and
// `agentpay --help` as the commander definition in dist/cli.js gives them, and
// dist/completion.json, that definition as shell completion reads it (src/completion/tree.ts).
// bin/agentpay.js serves those from them (dist/cached-answer.cjs, dist/completion-answer.cjs)
// so they load nothing else (docs/performance.md); tests keep both equal to the live definition.
import { readFileSync, writeFileSync } from 'node:fs';

const dist = new URL('../dist/', import.meta.url);
const { buildProgram } = await import(new URL('cli.js', dist).href);
const { completionData } = await import(new URL('completion/tree.js', dist).href);

let text = '';
const capture = { write: (chunk) => ((text += chunk), true) };
const program = buildProgram({ stdin: process.stdin, stdout: capture, stderr: process.stderr, env: {} });
// Lay the help out as commander does when stdout is not a terminal (its default width, 80),
// whatever terminal runs the build; the cache is used only when that is the width wanted.
program.configureOutput({ getOutHelpWidth: () => undefined, getOutHasColors: () => false });
try {
  await program.parseAsync(['--help'], { from: 'user' });
} catch (error) {
  if (error?.code !== 'commander.helpDisplayed') throw error;
}
if (!text.startsWith('Usage: agentpay')) throw new Error(`unexpected help text: ${JSON.stringify(text.slice(0, 80))}`);

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const info = { version, help: { width: 80, text } };
writeFileSync(new URL('build-info.json', dist), `${JSON.stringify(info, null, 2)}\n`);
writeFileSync(new URL('completion.json', dist), `${JSON.stringify(completionData(program))}\n`);
