import { type Catalogue, en } from '../i18n/en.js';
import { shownText } from './sanitize.js';
import type { Style } from './style.js';

/** What the LIVE line names: a profile that pays real money, where it pays, as whom, and what chose it. */
export interface LiveLine {
  profile: string;
  /** The gateway's host (and port), from its base URL; undefined when none is set. */
  host: string | undefined;
  agentId: string | undefined;
  /** `AGENTPAY_PROFILE=prod`, `--profile prod`, `AGENTPAY_BASE_URL`, `--base-url`; undefined for the default profile. */
  chosenBy: string | undefined;
}

// `LIVE  prod · pay.example.kz · agent 1001 · chosen by AGENTPAY_PROFILE=prod` on stderr before a command that
// can move money sends through a live profile (docs/desk-safety.md).
export function renderLiveLine(line: LiveLine, style: Style, said: Catalogue = en): string {
  const words = said.desk.live;
  // A profile's name and values came from a config file or the environment: shown through shownText.
  const parts = [
    shownText(line.profile),
    line.host === undefined ? words.noGateway : shownText(line.host),
    words.agent(line.agentId === undefined ? undefined : shownText(line.agentId)),
  ];
  if (line.chosenBy !== undefined) parts.push(words.chosenBy(shownText(line.chosenBy)));
  return `${style.failure(style.strong('LIVE'))}  ${style.strong(parts.join(' · '))}`;
}
