import type { CodeClass } from '../protocol/codes.js';
import { codeListSettings } from '../settings/code-lists.js';
import type { SettingReport } from '../settings/report.js';
import { shownText } from './sanitize.js';
import type { Style } from './style.js';

/** What `doctor` learned from the gateway: an understood answer, or why there was none. */
export type GatewayCheck =
  | {
      ok: true;
      endpoint: string;
      route: string;
      transactionId: string;
      elapsedMs: number;
      status: string;
      message: string;
      /** What the code table makes of the answer (protocol/codes.ts). */
      codeClass: CodeClass;
      /** Settings to add, only those doctor suggests: the code a made-up id drew, for notFoundCodes. */
      suggest?: { notFoundCodes: string[] };
      /** What must hold for the suggestion to be right (a credentials refusal is no "not found"). */
      suggestOnlyIf?: string;
    }
  | { ok: false; endpoint: string | null; route: string | null; exitCode: number; message: string; hint: string | null };

/** What `doctor` found of the ledger: a journal file, or a team ledger reached (or not). */
export type LedgerCheck =
  | { kind: 'file'; where: string; exists: boolean }
  | { kind: 'postgres'; where: string; ok: true; schemaVersion: number; waiting: number }
  | { kind: 'postgres'; where: string; ok: false; message: string; waiting: number };

export interface DoctorReport {
  settings: SettingReport[];
  gateway: GatewayCheck;
  ledger: LedgerCheck;
}

/** The ledger's lines: where it is, whether it answers, and outcomes waiting on this machine for it. */
function ledgerLines(check: LedgerCheck, style: Style): string[] {
  if (check.kind === 'file') return ['Ledger', `  journal file  ${shownText(check.where)}${check.exists ? '' : style.dim(' (not made yet: the first payment makes it)')}`];
  const lines = ['Ledger', `  PostgreSQL  ${shownText(check.where)}`];
  if (check.ok)
    lines.push(
      `  ${style.success('✓')} reached; schema version ${check.schemaVersion}${check.schemaVersion === 0 ? ' (empty: set up on first use, or by `agentpay ledger migrate`)' : ''}`,
    );
  else lines.push(`  ${style.failure('✗')} ${shownText(check.message)}`);
  if (check.waiting > 0) {
    lines.push(
      `  ${style.pending('!')} ${check.waiting} outcome${check.waiting === 1 ? '' : 's'} kept on this machine wait for the ledger: the next command that reaches it delivers them`,
    );
  }
  return lines;
}

function sourceText(setting: SettingReport): string {
  if (setting.source === 'unset') return 'not set';
  return shownText(setting.origin === undefined ? setting.source : `${setting.source} ${setting.origin}`);
}

/** What an answer to a made-up id says, by the class of its code. */
const verdicts: Record<CodeClass, string> = {
  notFound: 'not found, as expected for a made-up id',
  unclassified: "a code not in this gateway's table",
  failed: 'a code in failedCodes; a made-up id is normally "not found"',
  pending: 'a code in pendingCodes; a made-up id is normally "not found"',
  success: 'success for a made-up id: check the base URL',
};

/** The report for a person: one line a setting, then the gateway check; values from settings and the gateway through shownText. */
export function renderDoctorReport(report: DoctorReport, style: Style): string {
  const width = Math.max(...report.settings.map((s) => s.key.length));
  // An empty code list is a value (nothing classified yet), not an unset setting.
  const shown = (setting: SettingReport) => (setting.value === null ? '-' : setting.value === '' ? '(none)' : shownText(setting.value));
  const valueWidth = Math.min(72, Math.max(...report.settings.map((s) => shown(s).length)));
  const lines = ['Settings (flag > env > profile > default)'];
  for (const setting of report.settings) {
    lines.push(`  ${setting.key.padEnd(width)}  ${shown(setting).padEnd(valueWidth)}  ${style.dim(sourceText(setting))}`);
  }
  const check = report.gateway;
  lines.push('Gateway');
  if (check.route !== null) lines.push(`  route     ${shownText(check.route)}`);
  if (check.endpoint !== null) lines.push(`  endpoint  ${shownText(check.endpoint)}`);
  if (check.ok) {
    const status = shownText(check.status);
    // JSON quotes the Message and escapes its C0 controls; shownText the rest (C1, bidi).
    const answered = `Status for ${check.transactionId} answered in ${check.elapsedMs} ms: ResponseStatus ${status} ${shownText(JSON.stringify(check.message))}`;
    lines.push(`  ${style.success('✓')} ${answered} (${verdicts[check.codeClass]})`);
    if (check.codeClass !== 'notFound') lines.push(style.dim(`    if that message is about credentials, check the agent id and password`));
    if (check.suggest) {
      const list = check.suggest.notFoundCodes;
      const { key, flag, env, meaning } = codeListSettings.notFound;
      lines.push(`  ${style.pending('!')} ResponseStatus ${status} is not in ${key}. If, and only if, its Message means "${meaning}" (not a refusal of your credentials), add it:`);
      const codes = shownText(list.join(','));
      lines.push(`      profile:  "${key}": ${shownText(JSON.stringify(list))}`);
      lines.push(`      flag:     ${flag} ${codes}   (env ${env}=${codes})`);
      lines.push(style.dim(`    until then a payment Status cannot find stays "unknown", and reconcile never closes it as never made`));
    }
  } else {
    lines.push(`  ${style.failure('✗')} ${shownText(check.message)}`);
  }
  lines.push(...ledgerLines(report.ledger, style));
  return lines.join('\n');
}

/** The report as one JSON object: settings keyed by name, each {value, source, origin}. */
export function doctorJson(report: DoctorReport): string {
  const settings = Object.fromEntries(report.settings.map(({ key, ...rest }) => [key, rest]));
  return JSON.stringify({ settings, gateway: report.gateway, ledger: report.ledger });
}
