import { type Catalogue, en } from '../i18n/en.js';
import type { CodeClass } from '../protocol/codes.js';
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
  /** --replay without its fallback: a made-up id has no recording, so nothing is asked; what answers instead. */
  | { ok: true; endpoint: string; route: string; replay: { directory: string; recordings: number } }
  | {
      ok: false;
      endpoint: string | null;
      route: string | null;
      exitCode: number;
      message: string;
      hint: string | null;
    };

/** What `doctor` found of the ledger: a journal file, or a team ledger reached (or not). */
export type LedgerCheck =
  | { kind: 'file'; where: string; exists: boolean }
  | { kind: 'postgres'; where: string; ok: true; schemaVersion: number; waiting: number }
  | { kind: 'postgres'; where: string; ok: false; message: string; waiting: number };

/** A setting's line: its value and where it came from (settings/report.ts describes them so). */
interface SettingLine {
  key: string;
  value: string | null;
  source: string;
  origin?: string;
}

export interface DoctorReport {
  settings: SettingLine[];
  /** How the notFoundCodes setting is named, for the suggestion to add a code to it (not in --json). */
  notFoundCodes: { key: string; flag: string; env: string };
  gateway: GatewayCheck;
  ledger: LedgerCheck;
}

/** The ledger's lines: where it is, whether it answers, and outcomes waiting on this machine for it. */
function ledgerLines(check: LedgerCheck, style: Style, said: Catalogue['doctor']): string[] {
  if (check.kind === 'file')
    return [
      said.ledger,
      `  ${said.journalFile}  ${shownText(check.where)}${check.exists ? '' : style.dim(said.notMadeYet)}`,
    ];
  const lines = [said.ledger, `  PostgreSQL  ${shownText(check.where)}`];
  if (check.ok) lines.push(`  ${style.success('✓')} ${said.reached(check.schemaVersion)}`);
  else lines.push(`  ${style.failure('✗')} ${shownText(check.message)}`);
  if (check.waiting > 0) lines.push(`  ${style.pending('!')} ${said.waiting(check.waiting)}`);
  return lines;
}

/** Where a setting came from, in words; a profile's origin is its JSON-quoted name and the config file (settings/report.ts). */
function sourceText(setting: SettingLine, said: Catalogue['doctor']): string {
  if (setting.source === 'unset') return said.sources.unset ?? 'not set';
  const source = said.sources[setting.source] ?? setting.source;
  if (setting.origin === undefined) return shownText(source);
  const inProfile = setting.source === 'profile' ? /^("(?:[^"\\]|\\.)*") in (.*)$/s.exec(setting.origin) : null;
  const origin = inProfile === null ? setting.origin : said.profileIn(inProfile[1] ?? '', inProfile[2] ?? '');
  return shownText(`${source} ${origin}`);
}

/** A value as a person reads it: the words put in place of one said in the language, a value itself as it is. */
function valueText(value: string, said: Catalogue['doctor']): string {
  const word = said.values[value];
  if (word !== undefined) return word;
  const notFound = ' (not found)';
  return value.endsWith(notFound) ? `${value.slice(0, -notFound.length)}${said.notFoundSuffix}` : value;
}

/** The gateway's lines: how it was reached, and what a Status for a made-up id drew. */
function gatewayLines(report: DoctorReport, style: Style, said: Catalogue['doctor']): string[] {
  const check = report.gateway;
  const labelWidth = Math.max(said.route.length, said.endpoint.length);
  const lines = [said.gateway];
  if (check.route !== null)
    lines.push(`  ${said.route.padEnd(labelWidth)}  ${shownText(valueText(check.route, said))}`);
  if (check.endpoint !== null) lines.push(`  ${said.endpoint.padEnd(labelWidth)}  ${shownText(check.endpoint)}`);
  if (!check.ok) return [...lines, `  ${style.failure('✗')} ${shownText(check.message)}`];
  if ('replay' in check)
    return [
      ...lines,
      `  ${style.success('✓')} ${said.replaying(check.replay.recordings, shownText(check.replay.directory))}`,
    ];
  const status = shownText(check.status);
  // JSON quotes the Message and escapes its C0 controls; shownText the rest (C1, bidi).
  const answered = said.answered(
    check.transactionId,
    check.elapsedMs,
    status,
    shownText(JSON.stringify(check.message)),
  );
  lines.push(`  ${style.success('✓')} ${answered} (${said.verdicts[check.codeClass]})`);
  if (check.codeClass !== 'notFound') lines.push(style.dim(`    ${said.credentialsHint}`));
  if (check.suggest) {
    const list = check.suggest.notFoundCodes;
    const { key, flag, env } = report.notFoundCodes;
    const codes = shownText(list.join(','));
    const width = Math.max(said.suggestProfile.length, said.suggestFlag.length) + 2;
    lines.push(`  ${style.pending('!')} ${said.suggest(status, key)}`);
    lines.push(`      ${said.suggestProfile.padEnd(width)}"${key}": ${shownText(JSON.stringify(list))}`);
    lines.push(`      ${said.suggestFlag.padEnd(width)}${flag} ${codes}   (${said.suggestEnv} ${env}=${codes})`);
    lines.push(style.dim(`    ${said.untilThen}`));
  }
  return lines;
}

/** The report for a person: one line a setting, then the gateway check; values from settings and the gateway through shownText. */
export function renderDoctorReport(report: DoctorReport, style: Style, catalogue: Catalogue = en): string {
  const said = catalogue.doctor;
  const named = (key: string) => (said.settingNames[key] === undefined ? key : `${said.settingNames[key]} (${key})`);
  const width = Math.max(...report.settings.map((s) => named(s.key).length));
  // An empty code list is a value (nothing classified yet), not an unset setting.
  const shown = (setting: SettingLine) =>
    setting.value === null ? '-' : setting.value === '' ? said.none : shownText(valueText(setting.value, said));
  const valueWidth = Math.min(72, Math.max(...report.settings.map((s) => shown(s).length)));
  const lines = [said.settings];
  for (const setting of report.settings) {
    lines.push(
      `  ${named(setting.key).padEnd(width)}  ${shown(setting).padEnd(valueWidth)}  ${style.dim(sourceText(setting, said))}`,
    );
  }
  lines.push(...gatewayLines(report, style, said), ...ledgerLines(report.ledger, style, said));
  return lines.join('\n');
}

/** The report as one JSON object: settings keyed by name, each {value, source, origin}. */
export function doctorJson(report: DoctorReport): string {
  const settings = Object.fromEntries(report.settings.map(({ key, ...rest }) => [key, rest]));
  return JSON.stringify({ settings, gateway: report.gateway, ledger: report.ledger });
}
