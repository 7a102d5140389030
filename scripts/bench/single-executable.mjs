// The bench's rows for the single executable of `npm run package` (scripts/bench.mjs `--only
// binary`): its --version, a Tab and a `check` at the slow gateway's latency against the same
// floors as the npm install's rows, which run beside it. It carries its own Node (26).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expectAnswer, ok } from './checks.mjs';
import { compare } from './measure.mjs';

/** `slowGateway()`: the bench gateway that answers after `latencyMs`. */
export function singleExecutableComparisons({ paths, runsFor, purchase }, slowGateway, latencyMs) {
  const { node, floors, work } = paths;
  const root = join(floors, '..', '..');
  const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const binary = join(root, 'dist', 'package', `agentpay-${version}-linux-x64`);
  const rows = (target, what, floorLabel, floor, value, limit) => [{ target, what, floorLabel, floor, value, limit }];

  return async function binaryRows({ env }) {
    if (!existsSync(binary)) throw new Error(`bench: no ${binary}; run \`npm run package\` first`);
    const bare = { label: 'node -e 0', command: [node, ['-e', '0'], { env }] };
    const [versionFloor, version] = await compare({
      runs: runsFor(21),
      floor: bare,
      candidates: [{ label: '--version', command: [binary, ['--version'], { env }] }],
      check: (side, result) => ok(side.label === '--version' ? 1 : undefined)(side, result),
    });
    const config = join(work, 'binary-completion-config');
    mkdirSync(join(config, 'agentpay'), { recursive: true });
    writeFileSync(join(config, 'agentpay', 'config.json'), JSON.stringify({ profiles: { default: {} } }));
    const tab = ['__complete', '--sandbox', 'check', '--service', ''];
    const [tabFloor, services] = await compare({
      runs: runsFor(21),
      floor: bare,
      candidates: [{ label: 'services', command: [binary, tab, { env: { ...env, XDG_CONFIG_HOME: config } }] }],
      check: (side, result) => ok(side.label === 'services' ? 4 : undefined)(side, result),
    });
    const gateway = await slowGateway();
    const { service, account, currency } = purchase;
    const checkArgs = ['check', '--service', service, '--account', account, '--currency', currency, '--json'];
    const [checkFloor, check] = await compare({
      runs: runsFor(15),
      floor: {
        label: 'node:http',
        command: [node, [join(floors, 'check-one.mjs'), gateway.baseUrl, service, account, currency], { env }],
      },
      candidates: [
        { label: 'agentpay', command: [binary, checkArgs, { env: { ...env, AGENTPAY_BASE_URL: gateway.baseUrl } }] },
      ],
      check: expectAnswer('"status":"10"'),
    });
    return [
      ...rows('start-up', 'the single executable: `--version`', '`node -e 0`', versionFloor, version, 2),
      ...rows(
        'Tab',
        "the single executable: `__complete --sandbox check --service ''`",
        '`node -e 0`',
        tabFloor,
        services,
        1.5,
      ),
      ...rows(
        `${latencyMs} ms`,
        'the single executable: `check --json`',
        'bare `node:http`, same AccountCheck',
        checkFloor,
        check,
        1.3,
      ),
    ];
  };
}
