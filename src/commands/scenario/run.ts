import { mkdirSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { AgentpayError, CancelledError, exitCodeOfSignal, UsageError } from '../../errors.js';
import { stoppedBy } from '../../interrupts.js';
import { parseOptions } from '../../options/definition.js';
import { optionRecord, textListOption } from '../../options/values.js';
import { t } from '../../run-scope.js';
import type { ScenarioData } from '../../scenario/data.js';
import type { Suite } from '../../scenario/file.js';
import type { RunResult } from '../../scenario/runner.js';
import type { CommandContext } from '../context.js';
import { guardLiveScenario } from '../live-guard.js';
import { scenarioOptions } from './options.js';

function parseScenarioOptions(raw: unknown) {
  const files = textListOption(optionRecord(raw).files, 'scenario files');
  if (files.length === 0) throw new UsageError(t().scenario.noFiles);
  return { files, ...parseOptions(raw, scenarioOptions) };
}

/** Why a file could not be read: its error code (ENOENT), else the message. */
const errorCode = (error: unknown) => (error as NodeJS.ErrnoException).code ?? (error as Error).message;

/** --data read and checked against every case that uses `${row.x}`, before anything is sent. */
async function loadData(path: string | undefined, suites: readonly Suite[]): Promise<ScenarioData | undefined> {
  const { checkDataFor, parseScenarioData, ScenarioDataError } = await import('../../scenario/data.js');
  try {
    let data: ScenarioData | undefined;
    if (path !== undefined) {
      let source: string;
      try {
        source = await readFile(path, 'utf8');
      } catch (error) {
        throw new UsageError(t().scenario.cannotReadData(path, errorCode(error)), { hint: t().scenario.nothingSent });
      }
      data = parseScenarioData(source, path);
    }
    checkDataFor(suites, data);
    return data;
  } catch (error) {
    if (error instanceof ScenarioDataError) throw new UsageError(error.message, { hint: t().scenario.dataHint });
    throw error;
  }
}

async function loadSuite(file: string) {
  const { parseScenario, ScenarioFileError } = await import('../../scenario/file.js');
  let source: string;
  try {
    source = await readFile(file, 'utf8');
  } catch (error) {
    throw new UsageError(t().scenario.cannotReadFile(file, errorCode(error)));
  }
  try {
    return parseScenario(source, file);
  } catch (error) {
    if (error instanceof ScenarioFileError) throw new UsageError(error.message, { hint: t().scenario.fileFormatHint });
    throw error;
  }
}

/** Every file read and checked, with its variables filled, before anything is sent. */
async function loadSuites(files: string[], varFlags: string[], env: NodeJS.ProcessEnv) {
  const { parseVarFlags, varsFor, VarError } = await import('../../scenario/vars.js');
  const suites = [];
  try {
    const flags = parseVarFlags(varFlags);
    for (const file of files) {
      const suite = await loadSuite(file);
      suites.push({ suite, vars: varsFor(suite, flags, env) });
    }
  } catch (error) {
    if (error instanceof VarError) throw new UsageError(error.message, { hint: t().scenario.nothingSent });
    throw error;
  }
  return suites;
}

/** Each --report, JUnit or HTML, to its path; - is stdout. */
function writeReports(
  render: Record<'junit' | 'html', () => string>,
  reports: ReturnType<typeof parseScenarioOptions>['report'],
  out: CommandContext['out'],
): void {
  for (const { format, path } of reports) {
    const text = render[format]();
    if (path === '-') out.stdout.write(text);
    else {
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, text);
      out.note(out.errorStyle.dim(t().scenario.reportWritten(format, path)));
    }
  }
}

/** `agentpay scenario`: scripted steps against the gateway, with assertions and reports. */
export async function runScenario(rawOptions: unknown, context: CommandContext): Promise<void> {
  const options = parseScenarioOptions(rawOptions);
  const { out } = context;
  const suites = await loadSuites(options.files, options.var, out.env);
  const data = await loadData(
    options.data,
    suites.map(({ suite }) => suite),
  );
  const lifted = guardLiveScenario(context, options.yes);

  const [{ runSuites }, { exchangeRecorder, gatewayStepExecutor }, human, json, { junitXml }, { htmlReport }] =
    await Promise.all([
      import('../../scenario/runner.js'),
      import('../../scenario/steps.js'),
      import('../../scenario/report-human.js'),
      import('../../scenario/report-json.js'),
      import('../../scenario/report-junit.js'),
      import('../../scenario/report-html.js'),
    ]);
  // With the report on stdout, the live lines move to stderr.
  const reportOnStdout = options.report.some((report) => report.path === '-');
  const live = reportOnStdout ? (text: string) => out.note(text) : (text: string) => out.data(text);
  const style = reportOnStdout ? out.errorStyle : out.style;
  const headed = new Set<string>();
  const said = t();

  const recorder = exchangeRecorder();
  const session = await context.openGateway({ onExchange: recorder.listen });
  // Ctrl+C, or SIGTERM from cron or a service manager (main.ts hears them): no new step starts, reports are written.
  const stop = context.interrupts.signal;
  const stoppedAfter = () => (stoppedBy(context.interrupts) === 'SIGTERM' ? 'SIGTERM' : 'Ctrl+C');
  const started = performance.now();
  let result;
  try {
    const inputs = suites.map((input) => ({ ...input, data }));
    result = await runSuites(inputs, gatewayStepExecutor({ context, session, recorder, signal: stop, lifted }), {
      bail: options.bail,
      signal: stop,
      jobs: options.jobs,
      retries: options.retry,
      listener: {
        caseStarted: (suite, caseName) => {
          if (out.json) return;
          if (!headed.has(suite.file)) live(human.suiteHeading(suite, style, said));
          headed.add(suite.file);
          live(human.caseHeading(caseName, style));
        },
        stepFinished: (suite, caseName, step) => {
          live(out.json ? json.stepJson(suite, caseName, step) : human.stepLines(step, style, said));
        },
        stepRetrying: (_suite, caseName, step, attempt, reason) => {
          const where = said.scenario.where(caseName, step.number, step.kind, step.id);
          out.note(out.errorStyle.pending(said.scenario.retrying(where, attempt, options.retry + 1, reason)));
        },
        caseFinished: (suite, outcome) => {
          if (out.json) live(json.caseJson(suite, outcome));
          else if (outcome.outcome === 'skipped')
            live(human.skippedCaseLine(outcome, stop.aborted ? stoppedAfter() : '--bail', style, said));
        },
      },
    });
  } finally {
    await session.close();
  }
  const ms = Math.round(performance.now() - started);
  live(out.json ? json.summaryJson(result, ms) : human.summaryLines(result, ms, style, said));

  const ended = result;
  writeReports({ junit: () => junitXml(ended), html: () => htmlReport(ended, ms) }, options.report, out);
  if (result.interrupted) {
    throw new CancelledError(
      said.scenario.stopped(stoppedAfter()),
      exitCodeOfSignal(stoppedBy(context.interrupts) ?? 'SIGINT'),
    );
  }
  if (result.exitCode !== 0) throw notPassedError(result);
}

/** The command's error when not every case passed, or a payment's outcome is unknown. */
function notPassedError(result: RunResult): AgentpayError {
  const cases = result.suites.flatMap((suite) => suite.cases);
  const bad = cases.filter((c) => c.outcome === 'failed' || c.outcome === 'error').length;
  const message = bad > 0 ? t().scenario.notPassed(bad, cases.length) : t().scenario.outcomeUnknown;
  return new AgentpayError(message, result.exitCode);
}
