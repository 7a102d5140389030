#!/usr/bin/env node
// Build step after tsc: dist/completion.json, the definition of dist/cli.js as the shell's Tab
// reads it (src/completion/tree.ts), so bin/agentpay.js answers without loading the program.
import { writeFileSync } from 'node:fs';

const dist = new URL('../dist/', import.meta.url);
const { buildProgram } = await import(new URL('cli.js', dist).href);
const { completionData } = await import(new URL('completion/tree.js', dist).href);

const program = buildProgram({ stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, env: {} });
writeFileSync(new URL('completion.json', dist), `${JSON.stringify(completionData(program))}\n`);
