import { join } from 'node:path';
import type { Option } from 'commander';
import { sandboxServices } from '../sandbox/catalogue.js';
import { readConfigFile } from '../settings/config-file.js';
import { configDirectory } from '../settings/definition.js';
import type { Profile } from '../settings/table.js';
import { settingsTable } from '../settings/table.js';
import type { Candidate, GivenOptions, ValueSource } from './engine.js';

/**
 * Values no commander definition holds: profile names from the config file, and service ids
 * from the sandbox's catalogue (under --sandbox) or from the chosen profile's `services`. Reads
 * the config file and nothing else: no gateway, no ledger. A config file that cannot be read
 * or is not valid gives no values; completion never prints an error.
 */
function profilesOf(env: NodeJS.ProcessEnv): Readonly<Record<string, Profile>> {
  try {
    return readConfigFile(join(configDirectory(env), 'config.json'))?.file.profiles ?? {};
  } catch {
    return {};
  }
}

function profileServices(env: NodeJS.ProcessEnv, given: GivenOptions): Candidate[] {
  const chosen = given.get('profile');
  const name = typeof chosen === 'string' ? chosen : env.AGENTPAY_PROFILE || 'default';
  const profiles = profilesOf(env);
  const services = Object.hasOwn(profiles, name) ? profiles[name]?.services : undefined;
  if (services === undefined) return [];
  try {
    return settingsTable.services.parse(services, 'profile').map(({ id, name: serviceName }) => ({ value: id, description: serviceName }));
  } catch {
    return [];
  }
}

export function completionValues(env: NodeJS.ProcessEnv): ValueSource {
  return (option: Option, given: GivenOptions) => {
    if (option.long === '--profile') return Object.keys(profilesOf(env)).map((name) => ({ value: name, description: '' }));
    if (option.long === '--service') {
      if (given.get('sandbox') === true) return sandboxServices.map(({ id, name }) => ({ value: id, description: name }));
      return profileServices(env, given);
    }
    return undefined;
  };
}
