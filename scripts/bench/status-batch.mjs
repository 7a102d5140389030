#!/usr/bin/env node
import { readFileSync } from 'node:fs';
// Floor for a batch of Status calls: a bare node:http keep-alive client sends the same form
// POSTs, `concurrency` at a time over as many connections, parses each answer and prints a line.
// Usage: node scripts/bench/status-batch.mjs <base-url> <ids-file> <concurrency>
import { Agent, request } from 'node:http';

const [baseUrl, idsFile, concurrency] = process.argv.slice(2);
const ids = readFileSync(idsFile, 'utf8')
  .split('\n')
  .filter((line) => line !== '');
const agent = new Agent({ keepAlive: true, maxSockets: Number(concurrency) });
const url = new URL(`${baseUrl}/home/index`);
const pad = (n) => String(n).padStart(2, '0');

function status(transactionId) {
  const now = new Date();
  const requestDate = `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())} ${pad(now.getHours())}:${pad(now.getMinutes())}:${pad(now.getSeconds())}`;
  const body = new URLSearchParams([
    ['AgentID', '1001'],
    ['AgentPassword', 'sandbox-demo-password'],
    ['RequestType', 'Status'],
    ['TransactionID', transactionId],
    ['RequestDate', requestDate],
  ]).toString();
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        agent,
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve(JSON.parse(text)));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

let next = 0;
async function worker() {
  while (next < ids.length) {
    const transactionId = ids[next++];
    const answer = await status(transactionId);
    process.stdout.write(
      `${JSON.stringify({ transactionId, status: String(answer.ResponseStatus), message: answer.Message })}\n`,
    );
  }
}
await Promise.all(Array.from({ length: Number(concurrency) }, worker));
agent.destroy();
