#!/usr/bin/env node
// Floor for one Status call: bare node:http sends the same form POST agentpay sends and
// parses the answer. Usage: node scripts/bench/status-one.mjs <base-url> <transaction-id>
import { request } from 'node:http';

const [baseUrl, transactionId] = process.argv.slice(2);
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
const req = request(
  `${baseUrl}/home/index`,
  {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength(body) },
  },
  (res) => {
    let text = '';
    res.setEncoding('utf8');
    res.on('data', (chunk) => (text += chunk));
    res.on('end', () => {
      const answer = JSON.parse(text);
      process.stdout.write(
        `${JSON.stringify({ transactionId, status: String(answer.ResponseStatus), message: answer.Message })}\n`,
      );
    });
  },
);
req.end(body);
