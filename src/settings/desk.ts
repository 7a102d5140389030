import { compareDecimals } from '../protocol/money.js';
import { flagName } from './definition.js';
import * as parse from './parsers.js';
import { pickSourced, type Sourced, type SourceInputs } from './sources.js';
import { type Profile, settingsTable } from './table.js';

/**
 * The desk's guards as settings (docs/desk-safety.md): which live profile a command would pay
 * through, the limits, the duplicate window. The rules that apply them are purchase/desk-guard.ts.
 */

export type LimitKind = 'maxAmount' | 'dailyLimit' | 'accountDailyLimit';

/** A limit in force for one currency, and what set it, for the message that refuses. */
export interface LimitRule {
  amount: string;
  currency: string;
  /** `profile "desk"` or `--max-amount`. */
  setBy: string;
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
}

interface DeskInputs {
  inputs: SourceInputs;
  sandbox: boolean;
  profileName: Sourced<string>;
  baseUrl: Sourced<string> | undefined;
  profiles: Readonly<Record<string, Profile>> | undefined;
}

/**
 * Live when the chosen profile says `"live": true`, or when the base URL in use (from the
 * environment or a flag) is a live profile's: an environment variable never points a command at
 * the live gateway without the line that says so. Never under --sandbox.
 */
function liveTarget({ inputs, sandbox, profileName, baseUrl, profiles }: DeskInputs): LiveTarget | undefined {
  if (sandbox) return undefined;
  if (inputs.profile?.live === true) {
    const name = profileName.value;
    const chosenBy = profileName.source === 'env' ? `${profileName.origin}=${name}` : profileName.source === 'flag' ? `--profile ${name}` : undefined;
    return { profile: name, chosenBy };
  }
  if (baseUrl === undefined || baseUrl.source === 'profile') return undefined;
  for (const [name, profile] of Object.entries(profiles ?? {})) {
    if (profile.live !== true || profile.baseUrl === undefined) continue;
    let url: string;
    try {
      url = parse.baseUrl(profile.baseUrl, 'profile');
    } catch {
      continue;
    }
    if (url === baseUrl.value) return { profile: name, chosenBy: baseUrl.source === 'env' ? String(baseUrl.origin) : '--base-url' };
  }
  return undefined;
}

/** The limits of one kind from the profile (not under --sandbox: it describes a real gateway) and the flag. */
function limitOf(kind: LimitKind, { inputs, sandbox, profileName }: DeskInputs) {
  const setting = settingsTable[kind];
  const fromProfile = sandbox ? undefined : (pickSourced(kind, setting, inputs, ['profile'])?.value as parse.AmountsPerCurrency | undefined);
  const fromFlag = pickSourced(kind, setting, inputs, ['flag'])?.value as parse.AmountsPerCurrency | undefined;
  return (currency: string): LimitRule | undefined => {
    const rules: LimitRule[] = [];
    const profileAmount = fromProfile?.get(currency);
    if (profileAmount !== undefined) rules.push({ amount: profileAmount, currency, setBy: `profile ${JSON.stringify(profileName.value)}` });
    const flagAmount = fromFlag?.get(currency) ?? fromFlag?.get('*');
    if (flagAmount !== undefined) rules.push({ amount: flagAmount, currency, setBy: flagName(setting) ?? kind });
    return rules.reduce<LimitRule | undefined>((lowest, rule) => (lowest === undefined || compareDecimals(rule.amount, lowest.amount) < 0 ? rule : lowest), undefined);
  };
}

export function resolveDesk(desk: DeskInputs, duplicateWindowMs: Sourced<number>): DeskSettings {
  const limits = { maxAmount: limitOf('maxAmount', desk), dailyLimit: limitOf('dailyLimit', desk), accountDailyLimit: limitOf('accountDailyLimit', desk) };
  return {
    live: liveTarget(desk),
    limit: (kind, currency) => limits[kind](currency),
    duplicateWindowMs,
  };
}
