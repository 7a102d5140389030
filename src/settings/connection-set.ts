import { UsageError } from '../errors.js';
import type { ConnectionPart } from '../i18n/en.js';
import { t } from '../run-scope.js';
import { locatePassword } from './password.js';
import type { Settings } from './resolve.js';
import type { Sourced } from './sources.js';

/** Refuses a real gateway's command when its gateway, agent id or password is not set, naming
 * every one missing in one error (not one a run). One alone keeps its own message. A password
 * asked for at a terminal is not missing; it is asked only once the others are set. */
export function checkConnectionSet<Given extends Pick<Settings, 'baseUrl' | 'agentId' | 'sources'>>(
  settings: Given,
  stdinIsTerminal: boolean,
): asserts settings is Given & { baseUrl: Sourced<string>; agentId: Sourced<string> } {
  const said = t().settings;
  const missing: ConnectionPart[] = [];
  if (!settings.baseUrl) missing.push('gateway');
  if (!settings.agentId) missing.push('agentId');
  if (missing.length === 0) return;
  if (locatePassword(settings, stdinIsTerminal).kind === 'none') missing.push('password');
  if (missing.length > 1) throw new UsageError(said.notSet(missing), { hint: said.notSetHint });
  if (missing[0] === 'gateway') throw new UsageError(said.noGateway, { hint: said.noGatewayHint });
  throw new UsageError(said.noAgentId, { hint: said.noAgentIdHint });
}
