import { parseDocument, visit } from 'yaml';
import { z } from 'zod';
import { isDecimalNumber } from '../protocol/money.js';
import type { Expectation } from './assertions.js';
import { PathSyntaxError, parsePath } from './path.js';
import { placeholdersInValue } from './placeholders.js';
import {
  commonSchema,
  optionalText,
  optionSchemas,
  recordFields,
  type StepDefinition,
  type StepKind,
  type StepOptions,
  stepKinds,
  text,
} from './step-schema.js';

// A scenario file, YAML or JSON: named cases of steps, numbers read as their exact text. What can be checked
// before a request is sent is checked here: keys, step references, placeholders, paths and patterns.
export class ScenarioFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ScenarioFileError';
  }
}

export const varNamePattern = /^[A-Za-z_][A-Za-z0-9_]*$/;

export interface CaseDefinition {
  name: string;
  steps: StepDefinition[];
  /** Every `${row.x}` the case uses, first seen first: with --data it runs once per row. */
  rowColumns: string[];
}

export interface Suite {
  file: string;
  name: string;
  /** Defaults for `${var.x}`, overridden by the environment and --var. */
  vars: Record<string, string>;
  /** Every `${var.x}` the file uses. */
  varsUsed: Set<string>;
  cases: CaseDefinition[];
}

const fileSchema = z.strictObject({
  name: optionalText,
  description: optionalText,
  vars: z
    .record(
      z.string().regex(varNamePattern, 'a var name is letters, digits and _'),
      z.union([text, z.boolean()]).transform(String),
    )
    .optional(),
  cases: z.array(z.unknown()).min(1, 'a scenario needs at least one case'),
});

const caseSchema = z.strictObject({
  name: text.min(1, 'a case needs a name'),
  description: optionalText,
  steps: z.array(z.unknown()).min(1, 'a case needs at least one step'),
});

function parseWith<T extends z.ZodType>(schema: T, value: unknown, where: string): z.infer<T> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  // A misspelt key explains a missing one, so it is told first.
  const issue = parsed.error.issues.find((i) => i.code === 'unrecognized_keys') ?? parsed.error.issues[0];
  const at = issue && issue.path.length > 0 ? ` ${issue.path.map(String).join('.')}:` : '';
  const message =
    issue?.code === 'invalid_type' && issue.message.endsWith('received undefined')
      ? 'is required'
      : (issue?.message ?? 'invalid');
  throw new ScenarioFileError(`${where}:${at} ${message}`);
}

/** YAML, with numbers kept as the text they were written with. */
function parseYaml(source: string, file: string): unknown {
  const document = parseDocument(source, { prettyErrors: true, uniqueKeys: true });
  const [error] = document.errors;
  if (error) throw new ScenarioFileError(`${file}: not valid YAML or JSON: ${error.message.split('\n')[0]}`);
  visit(document, {
    Scalar(_key, node) {
      if ((typeof node.value === 'number' || typeof node.value === 'bigint') && typeof node.source === 'string')
        node.value = node.source;
    },
  });
  return document.toJS({ maxAliasCount: 1000 });
}

/** `status: <id>` and `repeat-pay: <step>` are short for the map; a bare `wait:` takes the defaults. */
function expandShorthand(kind: StepKind, value: unknown): unknown {
  if (value === null || value === undefined) return {};
  if (typeof value !== 'string') return value;
  if (kind === 'status' || kind === 'wait') return { 'txn-id': value };
  if (kind === 'repeat-pay') return { of: value };
  return value;
}

function parseStep(raw: unknown, number: number, where: string): StepDefinition {
  const at = `${where}, step ${number}`;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new ScenarioFileError(`${at}: a step is a map such as {check: {service: "101", account: "7011234567"}}`);
  }
  const kinds = stepKinds.filter((kind) => Object.hasOwn(raw, kind));
  if (kinds.length !== 1) {
    throw new ScenarioFileError(
      `${at}: ${kinds.length === 0 ? 'say what it does' : `one thing per step, not ${kinds.join(' and ')}`}: ${stepKinds.join(', ')}`,
    );
  }
  const kind = kinds[0]!;
  const { [kind]: rawOptions, ...rest } = raw as Record<string, unknown>;
  const common = parseWith(commonSchema, rest, `${at} (${kind})`);
  const options = parseWith(optionSchemas[kind], expandShorthand(kind, rawOptions), `${at} (${kind})`) as StepOptions;
  const expect = Object.entries(common.expect ?? {}).map(([path, matcher]): Expectation => {
    try {
      return { path, segments: parsePath(path), matcher };
    } catch (error) {
      if (error instanceof PathSyntaxError) throw new ScenarioFileError(`${at} (${kind}): expect: ${error.message}`);
      throw error;
    }
  });
  return { kind, number, id: common.id, name: common.name, options, credentials: common.credentials, expect };
}

/** What a case's placeholders use besides its steps: vars (the suite's) and row columns (the case's). */
interface Used {
  vars: Set<string>;
  rows: Set<string>;
}

/** The placeholders in `value` name vars or row columns (collected) or one of the `allowed` roots. */
function checkRoots(value: unknown, allowed: ReadonlySet<string>, at: string, used: Used): void {
  let found;
  try {
    found = placeholdersInValue(value);
  } catch (error) {
    if (error instanceof PathSyntaxError) throw new ScenarioFileError(`${at}: placeholder ${error.message}`);
    throw error;
  }
  for (const { text: placeholder, segments } of found) {
    const root = (segments[0] as { name: string }).name;
    if (root === 'var') {
      const name = segments[1]?.kind === 'field' ? segments[1].name : '';
      if (segments.length !== 2 || !varNamePattern.test(name))
        throw new ScenarioFileError(`${at}: \${${placeholder}}: a var is \${var.<name>}`);
      used.vars.add(name);
    } else if (root === 'row') {
      const name = segments[1]?.kind === 'field' ? segments[1].name : '';
      if (segments.length !== 2 || name === '')
        throw new ScenarioFileError(`${at}: \${${placeholder}}: a column of --data is \${row.<column>}`);
      used.rows.add(name);
    } else if (!allowed.has(root)) {
      const earlier = [...allowed].filter((name) => name !== 'self' && name !== 'each').join(', ') || 'none yet';
      throw new ScenarioFileError(`${at}: \${${placeholder}} names no earlier step of this case (earlier: ${earlier})`);
    }
  }
}

/** One expectation: its placeholders, the field it reads, and the literal its matcher holds. */
function checkExpectation(
  step: StepDefinition,
  expectation: StepDefinition['expect'][number],
  known: ReadonlySet<string>,
  at: string,
  used: Used,
): void {
  const where = `${at}: expect ${expectation.path}`;
  const allowed = new Set([...known, 'self', ...(expectation.segments.some((s) => s.kind === 'each') ? ['each'] : [])]);
  checkRoots(expectation.matcher, allowed, where, used);
  const root = (expectation.segments[0] as { name: string }).name;
  if (!recordFields[step.kind].includes(root))
    throw new ScenarioFileError(
      `${where}: a ${step.kind} step has no ${root}; it has ${recordFields[step.kind].join(', ')}`,
    );
  const literal = (value: string | undefined) => (value !== undefined && !value.includes('${') ? value : undefined);
  const sameAs = literal(expectation.matcher['same-as']);
  if (sameAs !== undefined && !known.has(sameAs))
    throw new ScenarioFileError(`${where}: same-as ${JSON.stringify(sameAs)} names no earlier step of this case`);
  const decimal = literal(expectation.matcher['decimal-equals']);
  if (decimal !== undefined && !isDecimalNumber(decimal))
    throw new ScenarioFileError(`${where}: decimal-equals ${JSON.stringify(decimal)} is not a decimal`);
  const pattern = literal(expectation.matcher.matches);
  if (pattern === undefined) return;
  try {
    new RegExp(pattern, 'u');
  } catch (error) {
    throw new ScenarioFileError(`${where}: matches: ${(error as Error).message}`);
  }
}

/** The references a case makes must point back at earlier steps; vars are collected. */
function checkReferences(steps: readonly StepDefinition[], where: string, used: Used): void {
  const known = new Set<string>();
  const payments = new Set<string>();
  const ids = new Set<string>();
  for (const step of steps) {
    const at = `${where}, step ${step.number} (${step.kind})`;
    checkRoots(
      { options: step.options, credentials: step.credentials, name: step.name },
      known,
      `${at}: options`,
      used,
    );
    for (const expectation of step.expect) checkExpectation(step, expectation, known, at, used);
    const of = step.kind === 'repeat-pay' ? step.options.of : undefined;
    if (typeof of === 'string' && !of.includes('${') && !payments.has(of)) {
      throw new ScenarioFileError(`${at}: of ${JSON.stringify(of)} names no earlier payment of this case`);
    }
    const needsPayment =
      (step.kind === 'repeat-pay' && of === undefined) ||
      ((step.kind === 'status' || step.kind === 'wait') && step.options['txn-id'] === undefined);
    if (needsPayment && payments.size === 0) {
      throw new ScenarioFileError(
        `${at}: it refers to the case's last payment, and there is none before it: give ${step.kind === 'repeat-pay' ? 'of' : 'txn-id'}`,
      );
    }
    if (step.id !== undefined) {
      if (ids.has(step.id))
        throw new ScenarioFileError(`${at}: id ${JSON.stringify(step.id)} is used twice in this case`);
      ids.add(step.id);
    }
    const names = [step.kind, ...(step.id === undefined ? [] : [step.id])];
    names.forEach((name) => known.add(name));
    if (step.kind === 'repeat-pay' || (step.kind === 'pay' && step.options['dry-run'] !== true))
      names.forEach((name) => payments.add(name));
  }
}

export function parseScenario(source: string, file: string): Suite {
  const content = parseWith(fileSchema, parseYaml(source, file), file);
  const varsUsed = new Set<string>();
  const caseNames = new Set<string>();
  const cases = content.cases.map((rawCase, index) => {
    const parsed = parseWith(caseSchema, rawCase, `${file}: cases[${index}]`);
    const where = `${file}: case ${JSON.stringify(parsed.name)}`;
    if (caseNames.has(parsed.name))
      throw new ScenarioFileError(
        `${where}: two cases have this name; names must differ (they name the JUnit testcases)`,
      );
    caseNames.add(parsed.name);
    const steps = parsed.steps.map((raw, i) => parseStep(raw, i + 1, where));
    const rows = new Set<string>();
    checkReferences(steps, where, { vars: varsUsed, rows });
    return { name: parsed.name, steps, rowColumns: [...rows] };
  });
  return { file, name: content.name ?? file, vars: content.vars ?? {}, varsUsed, cases };
}
