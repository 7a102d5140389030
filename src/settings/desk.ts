import { longFlag } from '../options/definition.js';
import { gatewayIdentity } from '../protocol/gateway-identity.js';
import { compareDecimals } from '../protocol/money.js';
import type * as parse from './parsers.js';
import { pickSourced, type Sourced, type SourceInputs } from './sources.js';
import { type Profile, settingsTable } from './table.js';

/** The desk's guards as settings (docs/desk-safety.md): which live profile a command would pay
 * through, the limits, the duplicate window. The rules that apply them are purchase/desk-guard.ts. */

export type LimitKind = 'maxAmount' | 'dailyLimit' | 'accountDailyLimit' | 'approvalOver';

/** A limit in force for one currency, and what set it, for the message that refuses. */
export interface LimitRule {
  amount: string;
  currency: string;
  /** The profile that set it (`desk`), or the flag (`--max-amount`); the catalogue words it. */
  setBy: { profile: string } | { flag: string } | { ledger: string };
}

/** The live profile a command would pay through. */
interface LiveTarget {
  profile: string;
  /** What chose it when not the default: `AGENTPAY_PROFILE=prod`, `--profile prod`, or the variable or flag that named its base URL. */
  chosenBy: string | undefined;
}

export interface DeskSettings {
  live: LiveTarget | undefined;
  /** The limit of a kind for a currency: the lower of the profile's and the flag's (a flag never raises one). */
  limit(kind: LimitKind, currency: string): LimitRule | undefined;
  /** A like payment this recent is a duplicate; 0: no check. */
  duplicateWindowMs: Sourced<number>;
  /** How long a request for approval, and the approval, stay good (the database caps it). */
  approvalTtlMs: number;
  /** A payment needs the operator's open shift (team ledger). */
  shifts: boolean;
}

interface DeskInputs {
  inputs: SourceInputs;
  sandbox: boolean;
  profileName: Sourced<string>;
  baseUrl: Sourced<string> | undefined;
  profiles: Readonly<Record<string, Profile>> | undefined;
}

/** A profile the desk's rules are read from: the chosen one, or a live one the base URL in use is. */
interface RuleSource {
  name: string;
  profile: Profile;
}

/** Live when the chosen profile says `"live": true`, or the base URL in use is a live profile's
 * however spelled (`LOCALHOST`, `:443`): an environment variable never points a command at the
 * live gateway unsaid. Never under --sandbox. */
function liveTarget({
  inputs,
  sandbox,
  profileName,
  baseUrl,
  profiles,
}: DeskInputs): (LiveTarget & { matched?: RuleSource }) | undefined {
  if (sandbox) return undefined;
  if (inputs.profile?.live === true) {
    const name = profileName.value;
    const chosenBy =
      profileName.source === 'env'
        ? `${profileName.origin}=${name}`
        : profileName.source === 'flag'
          ? `--profile ${name}`
          : undefined;
    return { profile: name, chosenBy };
  }
  if (baseUrl === undefined || baseUrl.source === 'profile') return undefined;
  const inUse = gatewayIdentity(baseUrl.value);
  for (const [name, profile] of Object.entries(profiles ?? {})) {
    if (profile.live !== true || typeof profile.baseUrl !== 'string') continue;
    if (gatewayIdentity(profile.baseUrl) === inUse) {
      return {
        profile: name,
        chosenBy: baseUrl.source === 'env' ? String(baseUrl.origin) : '--base-url',
        matched: { name, profile },
      };
    }
  }
  return undefined;
}

/** A rule of each profile that sets it, read as the settings table reads that key (not under --sandbox: profiles describe real gateways). */
function fromProfiles<T>(
  name: LimitKind | 'duplicateWindow',
  sources: readonly RuleSource[],
): { value: T; setBy: LimitRule['setBy'] }[] {
  const setting = settingsTable[name];
  return sources.flatMap(({ name: profile, profile: values }) => {
    const raw = values[setting.profile.key];
    return raw === undefined ? [] : [{ value: setting.parse(raw, 'profile') as T, setBy: { profile } }];
  });
}

/** The lowest limit of one kind for a currency, over the profiles' and the flag's (a flag never raises one). */
function limitOf(kind: LimitKind, inputs: SourceInputs, sources: readonly RuleSource[]) {
  const setting = settingsTable[kind];
  const profiles = fromProfiles<parse.AmountsPerCurrency>(kind, sources);
  const fromFlag = pickSourced(kind, setting, inputs, ['flag'])?.value as parse.AmountsPerCurrency | undefined;
  return (currency: string): LimitRule | undefined => {
    const rules: LimitRule[] = [];
    for (const { value, setBy } of profiles) {
      const amount = value.get(currency);
      if (amount !== undefined) rules.push({ amount, currency, setBy });
    }
    const flagAmount = fromFlag?.get(currency) ?? fromFlag?.get('*');
    if (flagAmount !== undefined)
      rules.push({ amount: flagAmount, currency, setBy: { flag: longFlag(setting) ?? kind } });
    return rules.reduce<LimitRule | undefined>(
      (lowest, rule) => (lowest === undefined || compareDecimals(rule.amount, lowest.amount) < 0 ? rule : lowest),
      undefined,
    );
  };
}

/** The duplicate window: the profiles' longest, else the default; a flag only lengthens it. Shortening it is the
 * desk's decision in its profile; a person passes a duplicate with --allow-duplicate, which the ledger records. */
function duplicateWindowOf(inputs: SourceInputs, sources: readonly RuleSource[]): Sourced<number> {
  const setting = settingsTable.duplicateWindow;
  const profiles = fromProfiles<number>('duplicateWindow', sources);
  const base: Sourced<number> =
    profiles.length === 0
      ? { value: setting.fallback(), source: 'default' }
      : { value: Math.max(...profiles.map((p) => p.value)), source: 'profile' };
  const flag = pickSourced('duplicateWindow', setting, inputs, ['flag']) as Sourced<number> | undefined;
  return flag !== undefined && flag.value > base.value ? flag : base;
}

export function resolveDesk(desk: DeskInputs): DeskSettings {
  const live = liveTarget(desk);
  const chosen: RuleSource[] =
    desk.sandbox || desk.inputs.profile === undefined
      ? []
      : [{ name: desk.profileName.value, profile: desk.inputs.profile }];
  // A live profile reached through its base URL brings its rules along: its limits hold for its gateway.
  const sources = live?.matched === undefined ? chosen : [...chosen, live.matched];
  const limits = {
    maxAmount: limitOf('maxAmount', desk.inputs, sources),
    dailyLimit: limitOf('dailyLimit', desk.inputs, sources),
    accountDailyLimit: limitOf('accountDailyLimit', desk.inputs, sources),
    approvalOver: limitOf('approvalOver', desk.inputs, sources),
  };
  return {
    live: live === undefined ? undefined : { profile: live.profile, chosenBy: live.chosenBy },
    limit: (kind, currency) => limits[kind](currency),
    duplicateWindowMs: duplicateWindowOf(desk.inputs, sources),
    approvalTtlMs:
      (pickSourced('approvalTtl', settingsTable.approvalTtl, desk.inputs, ['profile'])?.value as number | undefined) ??
      settingsTable.approvalTtl.fallback(),
    // Play money is in no shift: it is never in the team ledger (settings/play-ledger.ts).
    shifts: !desk.sandbox && pickSourced('shifts', settingsTable.shifts, desk.inputs, ['profile'])?.value === true,
  };
}
