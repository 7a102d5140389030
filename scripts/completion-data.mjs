#!/usr/bin/env node
// Build step after tsc: writes dist/completion.json, the commander definition of dist/cli.js as
// shell completion reads it (src/completion/tree.ts). A shell runs `agentpay __complete ...` at
// every Tab, and bin/agentpay.js answers it from this file without loading the program; a test
// keeps the file equal to the live definition.
import { writeFileSync } from 'node:fs';

const dist = new URL('../dist/', import.meta.url);
const { buildProgram } = await import(new URL('cli.js', dist).href);
const { completionData } = await import(new URL('completion/tree.js', dist).href);

const program = buildProgram({ stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, env: {} });
writeFileSync(new URL('completion.json', dist), `${JSON.stringify(completionData(program))}\n`);
