import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { UsageError } from '../errors.js';
import { t } from '../run-scope.js';
import { compileDatePattern } from './dates.js';
import type { RegistryLayout } from './layout.js';

// A registry mapping file (JSON or YAML; docs/registries.md), checked here alone: each refusal names the key
// and what was expected, in the chosen language (messages are functions, worded when a file is checked).
const said = () => t().registry.mapping;
const columnRef = z.union([
  z
    .number()
    .int()
    .min(1, { error: () => said().columnFrom1 }),
  z.string().min(1, { error: () => said().emptyName }),
]);

const knownEncoding = (label: string) => {
  try {
    new TextDecoder(label);
    return true;
  } catch {
    return false;
  }
};

const mappingSchema = z
  .strictObject({
    delimiter: z
      .string()
      .transform((text) => (text === 'tab' ? '\t' : text))
      .refine((text) => text.length === 1, { error: () => said().oneCharacter }),
    quote: z.union([z.string().length(1, { error: () => said().oneQuote }), z.literal(false)]).default('"'),
    header: z.boolean(),
    skipLines: z.number().int().min(0).default(0),
    encoding: z
      .string()
      .refine(knownEncoding, { error: () => said().encoding })
      .default('utf-8'),
    decimal: z.enum(['point', 'comma']).default('point'),
    date: z
      .union([z.string(), z.array(z.string()).min(1)])
      .transform((value) => (typeof value === 'string' ? [value] : value))
      .refine((patterns) => patterns.every((pattern) => compileDatePattern(pattern) !== undefined), {
        error: () => said().datePattern,
      }),
    columns: z.strictObject({
      transactionId: columnRef,
      date: columnRef,
      time: columnRef.optional(),
      account: columnRef,
      amount: columnRef,
    }),
    total: z.string().min(1).optional(),
  })
  .refine((mapping) => mapping.header || Object.values(mapping.columns).every((column) => typeof column !== 'string'), {
    path: ['columns'],
    error: () => said().numbered,
  });

/** A mapping file's text as a layout; a UsageError naming the file, the key and what was expected. */
export function parseMapping(source: string, file: string): RegistryLayout {
  let value: unknown;
  try {
    value = parseYaml(source, { uniqueKeys: true });
  } catch (error) {
    throw new UsageError(said().notYaml(file, (error as Error).message.split('\n')[0] ?? ''));
  }
  const parsed = mappingSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues.find((i) => i.code === 'unrecognized_keys') ?? parsed.error.issues[0];
    const at = issue && issue.path.length > 0 ? ` ${issue.path.map(String).join('.')}:` : '';
    const message =
      issue?.code === 'invalid_type' && issue.message.endsWith('received undefined')
        ? said().required
        : (issue?.message ?? 'invalid');
    throw new UsageError(said().invalid(file, at, message), { hint: said().hint });
  }
  const { date, ...layout } = parsed.data;
  return { name: file, ...layout, dates: date };
}

export function readMappingFile(file: string): RegistryLayout {
  let source: string;
  try {
    source = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new UsageError(said().unreadable(JSON.stringify(file), code), { hint: said().unreadableHint });
  }
  return parseMapping(source, file);
}
