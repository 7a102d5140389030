import type { Reporter, TestModule } from 'vitest/node';
import { installCommand, missingTools, type SystemTool, systemTools } from './system-tools.js';

/**
 * Ends the run with one plain line, `N passed, N failed, N skipped`, that any CI log
 * reader understands, whatever vitest's own reporter prints above it. Outside CI, the line
 * before it names the system tools whose tests were skipped and the command that installs them.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const counts = { passed: 0, failed: 0, skipped: 0 };
    for (const testModule of testModules) {
      for (const test of testModule.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') counts.passed++;
        else if (state === 'failed') counts.failed++;
        else counts.skipped++;
      }
    }
    const missing = process.env.CI === 'true' ? [] : missingTools(Object.keys(systemTools) as SystemTool[]);
    const tools =
      missing.length === 0
        ? ''
        : `\nskipped the tests that need ${missing.join(', ')} (not installed): ${installCommand(missing)}`;
    process.stdout.write(`${tools}\n${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped\n`);
  }
}
