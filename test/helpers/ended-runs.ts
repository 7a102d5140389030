import { afterEach } from 'vitest';
import { runsInFlight } from './cli.js';

// A test that timed out leaves its CLI run going: it is killed here, so it cannot pay into the
// next test's gateway, and what it said so far is shown, to tell where it stood.
afterEach(() => {
  for (const [child, run] of runsInFlight) {
    child.kill('SIGKILL');
    console.error(`killed a run its test left going: agentpay ${run.args.join(' ')}\n${run.stderr()}`);
  }
  runsInFlight.clear();
});
