import type { OptionDefinitions } from '../../options/definition.js';
import { waitOption } from '../../options/purchase.js';
import { lookupConcurrencyDefinition } from '../../options/values.js';

export const statusOptions = {
  fromFile: {
    flag: '--from-file <path>',
    help: {
      en: 'read ids from a file, one a line; - reads stdin',
      ru: 'читать id из файла, по одному в строке; - читает stdin',
    },
  },
  wait: {
    flag: '--wait <seconds>',
    help: {
      en: 'poll a pending transaction until final or this many seconds pass',
      ru: 'опрашивать незавершённую транзакцию, пока она не станет окончательной или не пройдёт столько секунд',
    },
    parse: waitOption,
  },
  concurrency: lookupConcurrencyDefinition,
} as const satisfies OptionDefinitions;
