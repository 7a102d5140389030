// `ledger compact`'s work (the built dist/ledger/file/compact.js) in a process a test can pause
// (pause-at.cjs):   node --require pause-at.cjs paused-compaction.mjs <journal>
import { compactJournal } from '../../dist/ledger/file/compact.js';

await compactJournal(process.argv[2]);
