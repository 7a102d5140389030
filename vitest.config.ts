import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // e2e tests spawn the CLI; two workers match the CI machine's two cores.
    maxWorkers: 2,
    reporters: ['default', './test/helpers/summary-reporter.ts'],
    // Every temporary file of the run under one directory, removed at the end.
    globalSetup: ['./test/helpers/temp-root.ts'],
  },
});
