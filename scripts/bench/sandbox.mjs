#!/usr/bin/env node
import { sandboxCredentials } from '../../dist/sandbox/catalogue.js';
// The bench's gateway: the sandbox (dist/sandbox/server.js) in a process of its own, so the
// client's CPU is measured apart from the server's. Its store is filled in memory with the
// same call a Payment makes, one transaction per id the bench looks up. Prints one JSON line
// {"baseUrl"} when ready; exits when its stdin closes (the bench ending, or dying). With a
// latency, each answer waits that long, as a gateway across a network does.
// Usage: node scripts/bench/sandbox.mjs <first-transaction-id> <count> [<latency-ms>]
import { startSandbox } from '../../dist/sandbox/server.js';
import { seedPaidTransaction } from '../../dist/sandbox/state.js';

const [first, count, latency = '0'] = process.argv.slice(2);
const sandbox = await startSandbox({ host: '127.0.0.1', port: 0, faults: { latencyMs: Number(latency) } });
const agentId = sandboxCredentials.agentId;
for (let i = 0; i < Number(count); i++) {
  const transactionId = (BigInt(first) + BigInt(i)).toString();
  seedPaidTransaction(sandbox.store, agentId, transactionId, `bench-${i}`);
}
process.stdout.write(`${JSON.stringify({ baseUrl: sandbox.baseUrl })}\n`);
process.stdin.resume();
process.stdin.on('end', () => void sandbox.close().then(() => process.exit(0)));
