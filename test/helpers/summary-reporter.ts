import type { Reporter, TestModule } from 'vitest/node';
import { installCommand, missingTools, type SystemTool, systemTools } from './system-tools.js';

/**
 * Ends the run with one plain line, `N passed, N failed, N skipped`, that any CI log
 * reader understands, whatever vitest's own reporter prints above it. Outside CI, the line
 * before it names the system tools whose tests were skipped and the command that installs them.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown> = []): void {
    // An error outside any test (a file whose beforeAll could not start its server) is a failure
    // too: its tests are only skipped, and "0 failed" would read as a pass.
    const counts = { passed: 0, failed: unhandledErrors.length, skipped: 0 };
    for (const testModule of testModules) {
      let failedHere = 0;
      for (const test of testModule.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') counts.passed++;
        else if (state === 'failed') failedHere++;
        else counts.skipped++;
      }
      counts.failed += failedHere === 0 && testModule.state() === 'failed' ? 1 : failedHere;
    }
    const missing = process.env.CI === 'true' ? [] : missingTools(Object.keys(systemTools) as SystemTool[]);
    const tools =
      missing.length === 0
        ? ''
        : `\nskipped the tests that need ${missing.join(', ')} (not installed): ${installCommand(missing)}`;
    process.stdout.write(`${tools}\n${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped\n`);
  }
}
