import { join } from 'node:path';
import { UsageError } from '../errors.js';
import type { LedgerLocation } from '../ledger-location.js';
import { t } from '../run-scope.js';
import { stateDirectory } from './directories.js';
import { rawAt, type Sourced, type SourceInputs } from './sources.js';
import { settingsTable } from './table.js';

/** Play money's own ledger (--sandbox, --replay), never the ledger real payments go to; a --ledger
 * or --journal flag with them is refused: which books were meant would be a guess (docs/sandbox.md). */
export function playLedgerOf(inputs: SourceInputs, replay: boolean): Sourced<LedgerLocation> {
  const mode = replay ? '--replay' : '--sandbox';
  if (rawAt('ledger', settingsTable.ledger, 'flag', inputs) !== undefined)
    throw new UsageError(t().settings.playLedgerFlag(mode), { hint: t().settings.playLedgerFlagHint(mode) });
  const path = join(stateDirectory(inputs.env), replay ? 'replay-ledger.sqlite' : 'sandbox-ledger.sqlite');
  return { value: { kind: 'file', path, shown: path, play: mode }, source: 'sandbox' };
}
