#!/usr/bin/env node
// Reference for target 2, not a floor: the least a Status call can cost with agentpay's pinned
// dependencies and none of agentpay's own code. Loads commander (and parses a command line) and
// lossless-json's CommonJS build; sends the same form POST with node:http, as agentpay does on a
// direct connection; parses the answer.
// Usage: node scripts/bench/deps-only.mjs <base-url> <transaction-id>
import { request } from 'node:http';
import { createRequire } from 'node:module';
import { Command } from 'commander';

const [baseUrl, transactionId] = process.argv.slice(2);
new Command('agentpay')
  .option('--json')
  .command('status')
  .argument('[ids...]')
  .action(() => {});
const require = createRequire(import.meta.url);
const { parse } = require('lossless-json');

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
const url = new URL(`${baseUrl}/home/index`);
const text = await new Promise((resolve, reject) => {
  const sent = request(
    url,
    {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength(body) },
    },
    (response) => {
      let received = '';
      response.setEncoding('utf8');
      response.on('data', (chunk) => (received += chunk));
      response.on('end', () => resolve(received));
    },
  );
  sent.on('error', reject);
  sent.end(body);
});
const answer = parse(text);
process.stdout.write(
  `${JSON.stringify({ transactionId, status: String(answer.ResponseStatus), message: answer.Message })}\n`,
);
