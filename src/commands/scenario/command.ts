import { Command } from 'commander';
import type { Language, Said } from '../../i18n/language.js';
import { addArgument, addOptions } from '../../options/commander.js';
import type { LazyAction } from '../define.js';
import { scenarioOptions } from './options.js';

const description: Said = {
  en: 'run scenario files: steps against the gateway with assertions (a conformance suite is in examples/)',
  ru: 'выполнить файлы сценариев: шаги против шлюза с проверками (набор на соответствие лежит в examples/)',
};

export function scenarioCommand(lazyAction: LazyAction, language: Language): Command {
  const scenario = new Command('scenario').description(description[language]);
  addArgument(scenario, language, {
    name: '<file...>',
    help: { en: 'scenario files, YAML or JSON', ru: 'файлы сценариев, YAML или JSON' },
  });
  return addOptions(scenario, language, scenarioOptions).action(
    lazyAction(async () => (await import('./run.js')).runScenario, 'files'),
  );
}
