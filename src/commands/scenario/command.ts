import { Command } from 'commander';
import { collect, type LazyAction } from '../define.js';

export function scenarioCommand(lazyAction: LazyAction): Command {
  return new Command('scenario')
    .description('run scenario files: steps against the gateway with assertions (a conformance suite is in examples/)')
    .argument('<file...>', 'scenario files, YAML or JSON')
    .option('--var <name=value>', 'fill ${var.name} in the files (repeatable; or env AGENTPAY_VAR_<NAME>)', collect, [])
    .option(
      '--report <junit:path|html:path>',
      'also write a JUnit XML or a self-contained HTML report to path; - prints it on stdout and moves the live lines to stderr (repeatable)',
      collect,
      [],
    )
    .option('--data <rows>', 'a CSV, JSON or YAML table: each case that uses ${row.<column>} runs once per row')
    .option('--jobs <n>', 'cases and iterations run n at a time (default 1); reports stay in file order')
    .option('--retry <n>', 'try a step that could not do its job (unreachable, not understood) again up to n times; a payment with the same TransactionID')
    .option('--yes', 'through a live profile: run its payments (always needed there)')
    .option('--bail', 'stop at the first case that does not pass')
    .action(lazyAction(async () => (await import('./run.js')).runScenario, 'files'));
}
