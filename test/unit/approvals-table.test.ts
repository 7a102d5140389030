import { describe, expect, it } from 'vitest';
import type { ApprovalRequest } from '../../src/ledger/team-ledger.js';
import { approvalsTable } from '../../src/render/approvals.js';
import { plainStyle } from '../../src/render/style.js';

const request = (account: string, requestedBy: string): ApprovalRequest => ({
  transactionId: '424242',
  gateway: 'http://127.0.0.1:8080',
  agentId: 'agent-1',
  service: '201',
  account,
  amount: '150.00',
  currency: 'KZT',
  invoiceId: null,
  voucher: null,
  needs: ['threshold'],
  requestedBy,
  requestedAt: '2026-01-05T10:00:00.000Z',
  expiresAt: '2026-01-05T11:00:00.000Z',
  decision: null,
  decidedBy: null,
  decidedAt: null,
  reason: null,
});

describe('approvalsTable: one account cannot look like another', () => {
  it.each([
    ['a zero-width space', '70\u200b11234567', '70\\u200b11234567'],
    ['a word joiner and a BOM', '7011\u2060234567\ufeff', '7011\\u2060234567\\ufeff'],
    ['a line separator', '7011234567\u2028', '7011234567\\u2028'],
  ])('shows %s in the account escaped', (_, account, shown) => {
    const table = approvalsTable([request(account, 'anna')], plainStyle);
    expect(table).toContain(`150.00 KZT to ${shown}, service 201`);
    expect(table).not.toMatch(/[\u200b\u2060\ufeff\u2028]/);
  });

  it('shows a zero-width joiner in who asked escaped', () => {
    expect(approvalsTable([request('7011234567', 'an\u200dna')], plainStyle)).toContain('an\\u200dna');
  });
});
