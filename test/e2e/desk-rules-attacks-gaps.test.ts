import { afterEach, describe, expect, it } from 'vitest';
import { gatewayIdentity } from '../../src/protocol/gateway-identity.js';
import { attackedDesk, closeClients, codeOf, gateway, intent, nextTxn } from '../helpers/desk-attacks.js';
import { teamLedgerRig } from '../helpers/team-ledger.js';

// What an operator's plain SQL got past before migration 10 (closed-gaps-schema.ts): other spellings of a
// gateway, play money, a bulk row pointed at another purchase, a shift opened in the past. The bulk run and
// `ledger import` that read such rows are in bulk-resume-ledger-words.test.ts and team-ledger-setup.test.ts.
const rig = teamLedgerRig();
afterEach(closeClients);

// Each of these is another spelling of a gateway (WHATWG URL reads it as another text).
const otherSpellings = [
  'http://127.0.0.1:09',
  'http://127.0.0.1:9/.',
  'http://127.0.0.1:9/a/..',
  'http://127.0.0.1:9/a/%2E%2e',
  'http://127.1:9',
  'http://0x7f000001:9',
  'http://2130706433:9',
  'http://127.000.0.1:9',
  'http://127.0.0.1.:9',
  'http://127.0.0.1:9?',
  'http://127.0.0.1:9#x',
  'http://user@127.0.0.1:9',
  'http://127.0.0.1:9 ',
  ' http://127.0.0.1:9',
  'http://127.0.0.1:9/',
  'HTTP://127.0.0.1:9',
  'http://LOCALHOST:9',
  'http://localhost.:9',
  'http://127.0.0.1:9\\',
  'http://[0:0:0:0:0:0:0:1]:9',
  'http://[::0001]:9',
  'http://[::1]:080',
  'https://pay.example.kz:443',
  'http://pay.example.kz:80/api',
  'https://pay.example.kz/api//',
  'https://pay.example.kz/a b',
  'https://пример.kz',
];
// Not a gateway's base URL at all (gatewayIdentity leaves such a text as it is): play money's names among them.
const notGateways = ['sandbox', 'replay', 'https://pay.example.kz:65536', 'ftp://pay.example.kz', ''];
const oneForms = [
  gateway,
  'http://127.0.0.1:65535',
  'https://pay.example.kz',
  'https://pay.example.kz:8443/agent/api',
  'https://pay.example.kz/a%20b/c;d=e',
  'https://pay.example.kz//api',
  'http://[::1]:8080',
  'http://[2001:db8::8:800:200c:417a]',
  'https://xn--e1afmkfd.kz',
  'http://gateway_1.internal:8080/v1',
  'http://10.0.0.255',
];

describe('attacks on the one spelling of a gateway, as an operator with psql', { timeout: 90_000 }, () => {
  it("takes a gateway only in the form agentpay writes it, and every other spelling WHATWG URL reads as it isn't", async () => {
    const { anna } = await attackedDesk(rig, 'frm');
    const inOneForm = async (spelling: string) =>
      (await anna.query('SELECT agentpay_gateway_in_one_form($1) AS ok', [spelling])).rows[0].ok as boolean;
    // The database's rule and gatewayIdentity agree on every spelling here: a fixed point, or not.
    const judged = [];
    for (const spelling of [...otherSpellings, ...oneForms])
      judged.push([spelling, await inOneForm(spelling), gatewayIdentity(spelling) === spelling]);
    expect(judged.filter(([, database, identity]) => database !== identity)).toEqual([]);
    expect(oneForms.filter((spelling) => gatewayIdentity(spelling) !== spelling)).toEqual([]);
    // Play money is a name, not a gateway: no intent of the team's books is written under it.
    const taken = [];
    for (const text of notGateways) if (await inOneForm(text)) taken.push(text);
    expect(taken).toEqual([]);
    const refused = [];
    for (const spelling of [...otherSpellings, ...notGateways])
      refused.push([spelling, await intent(anna, nextTxn(), '50.00', 'KZT', spelling)]);
    expect(refused.filter(([, code]) => code !== '23514')).toEqual([]);
    expect(await intent(anna, nextTxn(), '50.00', 'KZT', 'https://pay.example.kz:8443/agent/api')).toBe('done');
  });
});

describe("attacks on another operator's bulk run", { timeout: 90_000 }, () => {
  const keep = (txn: string, account: string, amount: string | null = '900.00') =>
    `INSERT INTO agentpay_bulk_rows (run_key, line, row_key, service, account, currency, invoice_id,
       invoice_position, amount, transaction_id, at)
     VALUES ('boris-host:/desk/orders.results.csv', ${Number(txn.slice(-6))}, NULL, '201', '${account}', 'KZT',
       NULL, NULL, ${amount === null ? 'NULL' : `'${amount}'`}, '${txn}', now())`;

  it('points no row of it at a payment of its own, nor pays its own purchase under a row of it', async () => {
    const { anna } = await attackedDesk(rig, 'blk', []);
    const paid = nextTxn();
    expect(await intent(anna, paid, '700.00')).toBe('done');
    // A row kept after its TransactionID was used: no bulk run does that, it keeps rows before paying.
    expect(await codeOf(anna, keep(paid, 'acct'))).toBe('APBLK');
    // A row kept first, then another purchase written under its TransactionID.
    const [other, cheaper, same] = [nextTxn(), nextTxn(), nextTxn()];
    expect(await codeOf(anna, keep(other, '7011234591'))).toBe('done');
    expect(await intent(anna, other, '900.00')).toBe('APBLK');
    expect(await codeOf(anna, keep(cheaper, 'acct'))).toBe('done');
    expect(await intent(anna, cheaper, '1.00')).toBe('APBLK');
    // The row's own purchase goes in, its amount as any spelling of the same decimal.
    expect(await codeOf(anna, keep(same, 'acct', '900'))).toBe('done');
    expect(await intent(anna, same, '900.00')).toBe('done');
  });
});

describe("attacks on a shift's times", { timeout: 90_000 }, () => {
  it('opens a shift at the moment it is opened, not when the caller began its transaction', async () => {
    const { anna } = await attackedDesk(rig, 'clk', []);
    // The transaction begins a statement before the shift is opened: now() is that statement's time.
    await anna.query('BEGIN');
    await anna.query('SELECT now()');
    const { rows } = await anna.query(
      'SELECT opened_at > now() AS later, opened_at <= clock_timestamp() AS past FROM agentpay_open_shift()',
    );
    await anna.query('COMMIT');
    expect(rows[0]).toEqual({ later: true, past: true });
  });
});
