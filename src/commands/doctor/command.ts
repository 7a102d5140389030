import { Command } from 'commander';
import type { LazyAction } from '../define.js';

export function doctorCommand(lazyAction: LazyAction): Command {
  return new Command('doctor')
    .description('show each setting and where it came from, then check that the gateway answers')
    .action(lazyAction(async () => (await import('./run.js')).runDoctor));
}
