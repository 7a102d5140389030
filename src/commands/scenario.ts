import { mkdirSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { z } from 'zod';
import { AgentpayError, CancelledError, UsageError } from '../errors.js';
import type { CommandContext } from './context.js';
import { parseOptions } from './purchase-options.js';

const scenarioOptionsSchema = z.object({
  files: z.array(z.string()).min(1, 'give at least one scenario file'),
  var: z.array(z.string()).default([]),
  report: z
    .array(
      z
        .string()
        .regex(/^junit:.+$/, '--report takes junit:<path>, such as junit:reports/conformance.xml (- for stdout)')
        .transform((value) => value.slice('junit:'.length)),
    )
    .default([]),
  bail: z.boolean().default(false),
});

async function loadSuite(file: string) {
  const { parseScenario, ScenarioFileError } = await import('../scenario/file.js');
  let source: string;
  try {
    source = await readFile(file, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read the scenario file ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  try {
    return parseScenario(source, file);
  } catch (error) {
    if (error instanceof ScenarioFileError) throw new UsageError(error.message, { hint: 'see docs/scenarios.md for the file format; nothing was sent' });
    throw error;
  }
}

/** `agentpay scenario`: scripted steps against the gateway, with assertions and reports. */
export async function runScenario(rawOptions: unknown, context: CommandContext): Promise<void> {
  const options = parseOptions(scenarioOptionsSchema, rawOptions);
  const { out } = context;
  const { parseVarFlags, varsFor, VarError } = await import('../scenario/vars.js');
  const suites = [];
  try {
    const flags = parseVarFlags(options.var);
    for (const file of options.files) {
      const suite = await loadSuite(file);
      suites.push({ suite, vars: varsFor(suite, flags, out.env) });
    }
  } catch (error) {
    if (error instanceof VarError) throw new UsageError(error.message, { hint: 'nothing was sent' });
    throw error;
  }

  const [{ runSuites }, { exchangeRecorder, gatewayStepExecutor }, human, json, { junitXml }] = await Promise.all([
    import('../scenario/runner.js'),
    import('../scenario/steps.js'),
    import('../scenario/report-human.js'),
    import('../scenario/report-json.js'),
    import('../scenario/report-junit.js'),
  ]);
  // With the report on stdout, the live lines move to stderr.
  const reportOnStdout = options.report.includes('-');
  const live = reportOnStdout ? (text: string) => out.note(text) : (text: string) => out.data(text);
  const style = reportOnStdout ? out.errorStyle : out.style;
  const headed = new Set<string>();

  const recorder = exchangeRecorder();
  const session = await context.openGateway({ onExchange: recorder.listen });
  // Ctrl+C, or SIGTERM from cron or a service manager: no new step starts, reports are written.
  const interrupt = new AbortController();
  const onInterrupt = () => interrupt.abort();
  const onTerminate = () => interrupt.abort('SIGTERM');
  const stoppedBy = () => (interrupt.signal.reason === 'SIGTERM' ? 'SIGTERM' : 'Ctrl+C');
  process.on('SIGINT', onInterrupt);
  process.on('SIGTERM', onTerminate);
  const started = performance.now();
  let result;
  try {
    result = await runSuites(suites, gatewayStepExecutor({ context, session, recorder, signal: interrupt.signal }), {
      bail: options.bail,
      signal: interrupt.signal,
      listener: {
        caseStarted: (suite, definition) => {
          if (out.json) return;
          if (!headed.has(suite.file)) live(human.suiteHeading(suite, style));
          headed.add(suite.file);
          live(human.caseHeading(definition, style));
        },
        stepFinished: (suite, definition, step) => {
          live(out.json ? json.stepJson(suite, definition.name, step) : human.stepLines(step, style));
        },
        caseFinished: (suite, outcome) => {
          if (out.json) live(json.caseJson(suite, outcome));
          else if (outcome.outcome === 'skipped') live(human.skippedCaseLine(outcome, interrupt.signal.aborted ? stoppedBy() : '--bail', style));
        },
      },
    });
  } finally {
    process.off('SIGINT', onInterrupt);
    process.off('SIGTERM', onTerminate);
    await session.close();
  }
  const ms = Math.round(performance.now() - started);
  live(out.json ? json.summaryJson(result, ms) : human.summaryLines(result, ms, style));

  const xml = junitXml(result);
  for (const path of options.report) {
    if (path === '-') out.stdout.write(xml);
    else {
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, xml);
      out.note(out.errorStyle.dim(`JUnit report written to ${path}`));
    }
  }
  if (result.interrupted) throw new CancelledError(`interrupted: the scenario stopped after ${stoppedBy()}; payments made so far are in the journal`);
  if (result.exitCode !== 0) {
    const cases = result.suites.flatMap((suite) => suite.cases);
    const bad = cases.filter((c) => c.outcome === 'failed' || c.outcome === 'error').length;
    const message = bad > 0 ? `${bad} of ${cases.length} cases did not pass` : 'every case passed, but a payment\'s outcome is unknown: it is in the journal for `agentpay reconcile`';
    throw new AgentpayError(message, result.exitCode);
  }
}
