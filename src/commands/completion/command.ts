import { Command } from 'commander';
import { completionInstallLines, completionScripts, completionShells } from '../../completion/scripts.js';
import type { Language, Said } from '../../i18n/language.js';
import { addArgument } from '../../options/commander.js';

const loadOnce: Said = { en: 'Load it once per shell:', ru: 'Подключите его один раз в каждой оболочке:' };

const description: Said = {
  en: 'print the shell completion script for bash, zsh or fish (how to load it: agentpay completion --help)',
  ru: 'напечатать скрипт дополнения по Tab для bash, zsh или fish (как подключить: agentpay completion --help)',
};

/** `agentpay completion bash|zsh|fish`: prints the shell's completion script. It needs no
 * settings, gateway or ledger, so its action writes straight to stdout (cli.ts gives it the
 * stream) rather than going through a command context. */
export function completionCommand(stdout: { write(text: string): unknown }, language: Language): Command {
  const completion = new Command('completion').description(description[language]);
  return addArgument(completion, language, {
    name: '<shell>',
    help: { en: 'the shell', ru: 'оболочка' },
    choices: completionShells,
  })
    .addHelpText(
      'after',
      `\n${loadOnce[language]}\n${completionInstallLines[language].map((line) => `  ${line}`).join('\n')}\n`,
    )
    .action((shell: (typeof completionShells)[number]) => {
      stdout.write(completionScripts[shell]);
    });
}
