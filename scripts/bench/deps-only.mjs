#!/usr/bin/env node
// Reference for target 2, not a floor: the least a Status call can cost with agentpay's pinned
// dependencies and none of agentpay's own code. Loads commander (and parses a command line),
// undici's Agent and request (the parts agentpay loads), lossless-json's CommonJS build; sends
// the same form POST with the wasm parser left unoptimised, as agentpay does; parses the answer.
// Usage: node scripts/bench/deps-only.mjs <base-url> <transaction-id>
import { createRequire } from 'node:module';
import { setFlagsFromString } from 'node:v8';
import { Command } from 'commander';

const [baseUrl, transactionId] = process.argv.slice(2);
new Command('agentpay').option('--json').command('status').argument('[ids...]').action(() => {});
const require = createRequire(import.meta.url);
const Agent = require('undici/lib/dispatcher/agent.js');
const request = require('undici/lib/api/api-request.js');
const { parse } = require('lossless-json');
setFlagsFromString('--liftoff-only');

const pad = (n) => String(n).padStart(2, '0');
const now = new Date();
const requestDate = `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())} ${pad(now.getHours())}:${pad(now.getMinutes())}:${pad(now.getSeconds())}`;
const body = new URLSearchParams([
  ['AgentID', '1001'],
  ['AgentPassword', 'sandbox-demo-password'],
  ['RequestType', 'Status'],
  ['TransactionID', transactionId],
  ['RequestDate', requestDate],
]).toString();
const agent = new Agent({ connections: 4 });
const url = new URL(`${baseUrl}/home/index`);
const response = await request.call(agent, { origin: url.origin, path: url.pathname, method: 'POST', body, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
const answer = parse(await response.body.text());
process.stdout.write(`${JSON.stringify({ transactionId, status: String(answer.ResponseStatus), message: answer.Message })}\n`);
await agent.close();
