import { Command } from 'commander';
import type { Language, Said } from '../../i18n/language.js';
import type { LazyAction } from '../define.js';

const description: Said = {
  en: 'show each setting and where it came from, then check that the gateway answers',
  ru: 'показать каждую настройку и откуда она взята, затем проверить, что шлюз отвечает',
};

export function doctorCommand(lazyAction: LazyAction, language: Language): Command {
  return new Command('doctor')
    .description(description[language])
    .action(lazyAction(async () => (await import('./run.js')).runDoctor));
}
