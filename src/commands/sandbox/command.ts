import { Command } from 'commander';
import type { Language, Said } from '../../i18n/language.js';
import { addOptions } from '../../options/commander.js';
import type { LazyAction } from '../define.js';
import { sandboxOptions } from './options.js';

const description: Said = {
  en: 'run the sandbox gateway in the foreground',
  ru: 'запустить шлюз-песочницу на переднем плане',
};

export function sandboxCommand(lazyAction: LazyAction, language: Language): Command {
  const sandbox = new Command('sandbox').description(description[language]);
  return addOptions(sandbox, language, sandboxOptions).action(
    lazyAction(async () => (await import('./run.js')).runSandbox),
  );
}
