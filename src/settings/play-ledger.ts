import { join } from 'node:path';
import { UsageError } from '../errors.js';
import { t } from '../i18n/current.js';
import type { LedgerLocation } from '../ledger/location.js';
import { stateDirectory } from './definition.js';
import { rawAt, type Sourced, type SourceInputs } from './sources.js';
import { settingsTable } from './table.js';

/**
 * The ledger of play money. --sandbox and --replay record in a journal of their own beside the
 * embedded gateway's state, never in the ledger real payments go to (the environment's, the
 * profile's, a team ledger): no live history, report, reconcile, shift or approval counts them.
 * A --ledger (--journal) flag with them is refused: which books were meant would be a guess.
 */
export function playLedgerOf(inputs: SourceInputs, replay: boolean): Sourced<LedgerLocation> {
  const mode = replay ? '--replay' : '--sandbox';
  if (rawAt('ledger', settingsTable.ledger, 'flag', inputs) !== undefined)
    throw new UsageError(t().settings.playLedgerFlag(mode), { hint: t().settings.playLedgerFlagHint(mode) });
  const path = join(stateDirectory(inputs.env), replay ? 'replay-journal.jsonl' : 'sandbox-journal.jsonl');
  return { value: { kind: 'file', path, shown: path, play: mode }, source: 'sandbox' };
}
