import { Option, type Command } from 'commander';
import { settingEntries, type SettingDefinition } from './table.js';

/** A setting's --help line: what it does, then where else it may come from and its default. */
function helpOf(setting: SettingDefinition): string {
  if (setting.switch) return setting.help;
  const plain = (text: string) => text.replaceAll('`', '');
  const env = setting.env === undefined ? [] : [`env ${setting.env.join(', ')}`];
  return `${setting.help} (${[...env, `default ${plain(setting.defaultText)}`].join('; ')})`;
}

/** The global options of `agentpay`, one per setting of the table that has a flag. */
export function addGlobalOptions(program: Command): Command {
  for (const [, setting] of settingEntries) {
    if (setting.flag === undefined) continue;
    const option = new Option(setting.flag, helpOf(setting));
    program.addOption(setting.choices ? option.choices(setting.choices) : option);
  }
  return program;
}
