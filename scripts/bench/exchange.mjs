// One form POST to the bench sandbox over a keep-alive node:http agent, for the floors of
// check and pay: the fields agentpay sends, in its order (credentials, RequestType, then the
// request's own), with a RequestDate and, unless given, a fresh TransactionID.
import { Agent, request } from 'node:http';

const agent = new Agent({ keepAlive: true, maxSockets: 1 });
const pad = (n) => String(n).padStart(2, '0');

export const freshTransactionId = () =>
  `${BigInt(Date.now()) * 1_000_000n + BigInt(Math.floor(Math.random() * 1_000_000))}`;

function requestDate() {
  const now = new Date();
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())} ${pad(now.getHours())}:${pad(now.getMinutes())}:${pad(now.getSeconds())}`;
}

/** Sends a purchase request (spec 4.1-4.2) and resolves with the parsed answer. */
export function exchange(
  baseUrl,
  requestType,
  { service, amount, currency, account, transactionId = freshTransactionId(), invoiceId },
  via = agent,
) {
  const fields = [
    ['AgentID', '1001'],
    ['AgentPassword', 'sandbox-demo-password'],
    ['RequestType', requestType],
    ['Service', service],
    ['Amount', amount],
    ['Currency', currency],
    ['RequestDate', requestDate()],
    ['TransactionID', transactionId],
    ['Account', account],
  ];
  if (invoiceId !== undefined) fields.push(['Extra[0].Name', 'InvoiceId'], ['Extra[0].Value', invoiceId]);
  const body = new URLSearchParams(fields).toString();
  return new Promise((resolve, reject) => {
    const req = request(
      `${baseUrl}/home/index`,
      {
        method: 'POST',
        agent: via,
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
