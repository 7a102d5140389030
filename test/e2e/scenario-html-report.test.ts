import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, launchChromium } from '../helpers/chromium.js';
import { isolatedEnv, runCli } from '../helpers/cli.js';
import { formsOfType, type SpecServer, startSpecServer } from '../helpers/spec-server.js';
import { skipWithout } from '../helpers/system-tools.js';

/** Skipped, named, without chromium outside CI; failed under CI=true (system-tools.ts). */
const skipped = skipWithout('chromium');

/**
 * The HTML report opened in a real headless Chromium (Debian's package, driven over the
 * DevTools pipe): what a person sees, and that nothing from a gateway runs as markup.
 */
const injected = '<img src=x onerror=alert(1)>';
const retitling = `<img src=y onerror="document.title='ran'">`;

let server: SpecServer | undefined;
let browser: Browser | undefined;
let closePage: (() => Promise<void>) | undefined;
beforeAll(() => {
  if (!skipped) browser = launchChromium();
});
afterAll(async () => {
  await browser?.close();
});
afterEach(async () => {
  await closePage?.();
  await server?.close();
  closePage = undefined;
  server = undefined;
});

/** What the page shows and did: rendered text, images, scripts, dialogs and title. */
const pageFacts = `(() => ({
  text: document.body.innerText,
  all: document.body.textContent,
  images: document.images.length,
  scripts: document.scripts.length,
  title: document.title,
  cases: [...document.querySelectorAll('details.case > summary')].map((s) => s.innerText),
  cells: [...document.querySelectorAll('table.failures td')].filter((td) => td.getClientRects().length > 0).map((td) => td.innerText),
}))()`;

interface PageFacts {
  text: string;
  /** Also what is inside closed sections. */
  all: string;
  images: number;
  scripts: number;
  title: string;
  cases: string[];
  cells: string[];
}

async function open(path: string): Promise<{ facts: PageFacts; dialogs: string[] }> {
  const page = await browser!.open(pathToFileURL(path).href);
  closePage = page.close;
  const facts = (await page.evaluate(pageFacts)) as PageFacts;
  return { facts, dialogs: page.dialogs };
}

describe.skipIf(skipped)('agentpay scenario --report html: in a browser', () => {
  it('shows the failed case first with its expected and actual values; a voucher name with markup is text and runs nothing', {
    timeout: 60_000,
  }, async () => {
    server = await startSpecServer({
      vouchers: [
        { invoiceId: '5001', orderAmount: '499.00', name: injected },
        { invoiceId: '5002', orderAmount: '2497.00', name: retitling },
      ],
    });
    const env = isolatedEnv({
      AGENTPAY_BASE_URL: server.baseUrl,
      AGENTPAY_AGENT_ID: '7',
      AGENTPAY_PASSWORD: 'html-report-secret',
    });
    const file = join(env.HOME!, 'report.yaml');
    writeFileSync(
      file,
      `name: "<i>report</i> suite"
cases:
  - name: pays the first voucher
    steps:
      - pay: { service: "101", account: "a-1", currency: KZT, invoice: 1 }
        expect: { state: success }
  - name: "the price <b>changed</b>"
    steps:
      - check: { service: "101", account: "a-1", currency: KZT }
        expect:
          vouchers[0].orderAmount: "500.00"
          vouchers[0].name: "500 coins"
`,
    );
    const report = join(env.HOME!, 'out', 'report.html');
    const result = await runCli(['scenario', file, '--report', `html:${report}`], { env });
    expect(result.code).toBe(1);
    expect(formsOfType(server.received, 'Payment')).toHaveLength(1);
    const html = readFileSync(report, 'utf8');
    expect(html).not.toContain('html-report-secret');

    const { facts, dialogs } = await open(report);
    // Failures first, though the file has the passing case first; names are text.
    expect(facts.cases[0]).toContain('the price <b>changed</b>');
    expect(facts.cases[1]).toContain('pays the first voucher');
    expect(facts.text).toContain('<i>report</i> suite');
    // The failed case's expected and actual values, rendered (its section open).
    expect(facts.cells).toEqual([
      'vouchers[0].orderAmount',
      'equals',
      '"500.00"',
      '"499.00"',
      'vouchers[0].name',
      'equals',
      '"500 coins"',
      `"${injected}"`,
    ]);
    // The voucher names are shown as text; no image was made, no script ran, no dialog opened.
    expect(facts.text).toContain(injected);
    // The second voucher is in the record's section (closed), as JSON text: there as text too.
    expect(facts.all).toContain(JSON.stringify(retitling).slice(1, -1));
    expect(facts.images).toBe(0);
    expect(facts.scripts).toBe(0);
    expect(facts.title).toBe('agentpay scenario');
    expect(dialogs).toEqual([]);
    // The request sent, password masked.
    expect(facts.text).toContain('"AgentPassword": "***"');
    expect(facts.text).not.toContain('html-report-secret');
  });

  it('the same checks catch markup that was not escaped (the test can fail)', { timeout: 60_000 }, async () => {
    const env = isolatedEnv();
    const raw = join(env.HOME!, 'raw.html');
    writeFileSync(
      raw,
      `<!doctype html><html><head><title>agentpay scenario</title></head><body><p>${injected}</p><p>${retitling}</p></body></html>`,
    );
    const { facts, dialogs } = await open(raw);
    expect(facts.images).toBe(2);
    expect(facts.text).not.toContain(injected);
    // The page has loaded; the broken images' handlers run soon after.
    for (let i = 0; i < 50 && dialogs.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(dialogs).toEqual(['1']);
  });
});
