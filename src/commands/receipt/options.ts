import type { OptionDefinitions } from '../../options/definition.js';
import { wholeNumberOption } from '../../options/values.js';

export const receiptOptions = {
  width: {
    flag: '--width <columns>',
    help: {
      en: 'fit a receipt printer: no line wider than this (20 to 1000; 32 and 48 are usual)',
      ru: 'под чековый принтер: ни одной строки шире этого (от 20 до 1000; обычно 32 или 48)',
    },
    parse: (raw: unknown) =>
      raw === undefined
        ? undefined
        : wholeNumberOption(raw, {
            fallback: '',
            maxDigits: 4,
            min: 20,
            max: 1000,
            flag: '--width',
            unit: 'columns',
          }),
  },
} as const satisfies OptionDefinitions;
