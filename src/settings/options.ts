import { type Command, Option } from 'commander';
import type { SettingDefinition } from './definition.js';
import { settingEntries } from './table.js';

/** A setting's --help line in English (cli-language.ts says it in another language): what it does, then where else it may come from and its default. */
function helpOf(setting: SettingDefinition): string {
  if (setting.switch) return setting.help.en;
  // The docs' markdown as plain text: a lone word is quoted ("default"), code marks go.
  const defaultText = setting.defaultText.replace(/^`([a-z]+)`$/, '"$1"').replaceAll('`', '');
  const parts = [
    ...(setting.env === undefined ? [] : [`env ${setting.env.join(', ')}`]),
    ...(defaultText === 'none' ? [] : [`default ${defaultText}`]),
  ];
  return parts.length === 0 ? setting.help.en : `${setting.help.en} (${parts.join('; ')})`;
}

/** The global options of `agentpay`, one per setting of the table that has a flag. */
export function addGlobalOptions(program: Command): Command {
  for (const [, setting] of settingEntries) {
    if (setting.flag === undefined) continue;
    const option = new Option(setting.flag, helpOf(setting));
    program.addOption(setting.choices ? option.choices(setting.choices) : option);
    if (setting.alias) program.addOption(new Option(setting.alias.flag, `older name of ${setting.flag}`).hideHelp());
  }
  return program;
}
