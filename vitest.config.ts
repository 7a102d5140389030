import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // Most files wait on the processes they spawn: a third worker keeps CI's two cores busy.
    maxWorkers: 3,
    reporters: ['default', './test/helpers/summary-reporter.ts'],
    // Every temporary file of the run under one directory, removed at the end.
    globalSetup: ['./test/helpers/temp-root.ts'],
    projects: [
      {
        extends: true,
        // Unit tests share one module graph per worker: importing src again for each file was
        // most of their time. src keeps no process-wide state (a run's language and secrets are
        // scoped: test/helpers/in-run.ts), so nothing leaks from one file to the next.
        test: { name: 'unit', include: ['test/unit/**/*.test.ts'], isolate: false },
      },
      {
        extends: true,
        // These files mostly spawn the CLI; a fresh worker per file was much of a small file's cost.
        // They share a worker's modules, so a file ends what it starts (servers, runs: ended-runs.ts).
        test: {
          name: 'system',
          include: ['test/{e2e,tty}/**/*.test.ts'],
          setupFiles: ['./test/helpers/ended-runs.ts'],
          isolate: false,
        },
      },
      {
        extends: true,
        // The gateway client in-process: the process's secrets and language are its own per file.
        test: {
          name: 'gateway',
          include: ['test/gateway/**/*.test.ts'],
          setupFiles: ['./test/helpers/ended-runs.ts'],
        },
      },
    ],
  },
});
