import { Argument, Command } from 'commander';
import { completionInstallLines, completionScripts, completionShells } from '../../completion/scripts.js';

/**
 * `agentpay completion bash|zsh|fish`: prints the shell's completion script. It needs no
 * settings, gateway or ledger, so its action writes straight to stdout (cli.ts gives it the
 * stream) rather than going through a command context.
 */
export function completionCommand(stdout: { write(text: string): unknown }): Command {
  return new Command('completion')
    .description('print the shell completion script for bash, zsh or fish (how to load it: agentpay completion --help)')
    .addArgument(new Argument('<shell>', 'the shell').choices(completionShells))
    .addHelpText('after', `\nLoad it once per shell:\n${completionInstallLines.map((line) => `  ${line}`).join('\n')}\n`)
    .action((shell: (typeof completionShells)[number]) => {
      stdout.write(completionScripts[shell]);
    });
}
