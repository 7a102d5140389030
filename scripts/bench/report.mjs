// The bench's table (scripts/bench.mjs): the machine, the runs, and a row per comparison.
import { execFileSync } from 'node:child_process';

const ms = (n) => `${n.toFixed(1)} ms`;

function tableLine(row) {
  if (row.megabytes !== undefined) {
    return `| ${row.target} | ${row.what} | ${row.floorLabel} | | ${row.megabytes.toFixed(1)} MB | | < ${row.limitMb} MB | ${row.megabytes < row.limitMb ? 'pass' : '**FAIL**'} |`;
  }
  const ratio = row.value / row.floor;
  const verdict = row.limit === undefined ? '' : ratio <= row.limit ? 'pass' : '**FAIL**';
  return `| ${row.target} | ${row.what} | ${row.floorLabel} | ${ms(row.floor)} | ${ms(row.value)} | ${ratio.toFixed(2)}x | ${row.limit === undefined ? '' : `≤ ${row.limit}x`} | ${verdict} |`;
}

/** `runsFor(standard)`: the runs each comparison made, for the table's heading. */
export function report(machine, rows, runsFor) {
  let free = '';
  try {
    free = execFileSync('free', ['-h'], { encoding: 'utf8' });
  } catch {
    free = `${machine.memory} total\n`;
  }
  return [
    `Node ${machine.node}, ${machine.cpus}, ${machine.memory} RAM; load average ${machine.loadBefore} before, ${machine.loadAfter} after.`,
    `Runs per comparison: start-up and completion ${runsFor(21)}, one Status, check and pay ${runsFor(15)}, batch ${runsFor(7)}, reconcile ${runsFor(7)} (after 2 warm-up rounds each; medians).`,
    '',
    '| target | agentpay | floor | floor median | agentpay median | ratio | limit | result |',
    '|---|---|---|---:|---:|---:|---:|---|',
    ...rows.map(tableLine),
    '',
    '```',
    free.trimEnd(),
    '```',
  ].join('\n');
}
