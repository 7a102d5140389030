import { describe, expect, it } from 'vitest';
import { liveLineOf } from '../../src/commands/live-guard.js';
import { renderLiveLine } from '../../src/render/live-line.js';
import { renderPurchaseSummary } from '../../src/render/purchase.js';
import { loadStyle, plainStyle } from '../../src/render/style.js';
import type { DeskSettings } from '../../src/settings/desk.js';

const line = { profile: 'prod', host: 'pay.example.kz:8443', agentId: '1001', chosenBy: undefined };

describe('renderLiveLine', () => {
  it('names the profile, the gateway host and the agent', () => {
    expect(renderLiveLine(line, plainStyle)).toMatchInlineSnapshot(`"LIVE  prod · pay.example.kz:8443 · agent 1001"`);
  });

  it('says what chose the profile when it was not the default', () => {
    expect(renderLiveLine({ ...line, chosenBy: 'AGENTPAY_PROFILE=prod' }, plainStyle)).toMatchInlineSnapshot(
      `"LIVE  prod · pay.example.kz:8443 · agent 1001 · chosen by AGENTPAY_PROFILE=prod"`,
    );
    expect(renderLiveLine({ ...line, chosenBy: '--base-url' }, plainStyle)).toMatch(/ · chosen by --base-url$/);
  });

  it('still names the profile when the gateway or the agent is not set', () => {
    expect(renderLiveLine({ ...line, host: undefined, agentId: undefined }, plainStyle)).toBe(
      'LIVE  prod · no gateway set · agent not set',
    );
  });

  it('is coloured only when colour is on', async () => {
    expect(renderLiveLine(line, plainStyle)).not.toContain('\x1b[');
    expect(renderLiveLine(line, await loadStyle(1))).toMatch(/^\x1b\[31m\x1b\[1mLIVE/);
  });
});

describe('liveLineOf', () => {
  const desk = (live: DeskSettings['live']): DeskSettings => ({
    live,
    limit: () => undefined,
    duplicateWindowMs: { value: 0, source: 'default' },
    approvalTtlMs: 1_800_000,
    shifts: false,
  });

  it('takes the host from the base URL and the agent id from the settings', () => {
    const settings = {
      desk: desk({ profile: 'prod', chosenBy: '--profile prod' }),
      baseUrl: { value: 'https://pay.example.kz:8443/api/', source: 'profile' as const },
      agentId: { value: '1001', source: 'profile' as const },
    };
    expect(liveLineOf(settings)).toEqual({
      profile: 'prod',
      host: 'pay.example.kz:8443',
      agentId: '1001',
      chosenBy: '--profile prod',
    });
  });

  it('is undefined when the profile is not live', () => {
    expect(liveLineOf({ desk: desk(undefined), baseUrl: undefined, agentId: undefined })).toBeUndefined();
  });
});

describe('the purchase summary through a live profile', () => {
  it('is headed by the LIVE line', () => {
    const summary = {
      service: '201',
      account: '7011234567',
      voucher: undefined,
      amount: '150.00',
      currency: 'KZT',
      transactionId: '1',
    };
    const text = renderPurchaseSummary({ ...summary, live: { ...line, chosenBy: '--profile prod' } }, plainStyle, 80);
    expect(text.split('\n').slice(0, 2)).toEqual([
      'LIVE  prod · pay.example.kz:8443 · agent 1001 · chosen by --profile prod',
      'About to pay',
    ]);
    expect(renderPurchaseSummary(summary, plainStyle, 80)).not.toContain('LIVE');
  });
});
