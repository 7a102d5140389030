// The bench's start-up comparisons (scripts/bench.mjs): `--version`, `--help` and a shell's
// completion request against `node -e 0`.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ok } from './checks.mjs';
import { compare } from './measure.mjs';

/** `bench` (scripts/bench.mjs): the run's paths, `runsFor(standard)`, its sizes and ids. */
export function startupComparisons({ paths, runsFor }) {
  const { node, bin, work } = paths;
  return {
    async startup({ env }) {
      const [floor, version, help] = await compare({
        runs: runsFor(21),
        floor: { label: 'node -e 0', command: [node, ['-e', '0'], { env }] },
        candidates: [
          { label: '--version', command: [node, [bin, '--version'], { env }] },
          { label: '--help', command: [node, [bin, '--help'], { env }] },
        ],
        check: (side, result) => ok(side.label === '--version' ? 1 : undefined)(side, result),
      });
      return [
        {
          target: 'start-up',
          what: '`agentpay --version`',
          floorLabel: '`node -e 0`',
          floor,
          value: version,
          limit: 2,
        },
        { target: '(start-up)', what: '`agentpay --help`', floorLabel: '`node -e 0`', floor, value: help },
      ];
    },

    async completion({ env }) {
      // What a shell runs on each Tab (completion/scripts.ts): values from the sandbox's
      // catalogue, and profile names from a config file.
      const config = join(work, 'completion-config');
      mkdirSync(join(config, 'agentpay'), { recursive: true });
      writeFileSync(
        join(config, 'agentpay', 'config.json'),
        JSON.stringify({ profiles: { default: { services: { 301: 'Water' } }, night: {} } }),
      );
      const completionEnv = { ...env, XDG_CONFIG_HOME: config };
      const [floor, services, profiles] = await compare({
        runs: runsFor(21),
        floor: { label: 'node -e 0', command: [node, ['-e', '0'], { env }] },
        candidates: [
          {
            label: 'services',
            command: [node, [bin, '__complete', '--sandbox', 'check', '--service', ''], { env: completionEnv }],
          },
          { label: 'profiles', command: [node, [bin, '__complete', '--profile', ''], { env: completionEnv }] },
        ],
        check: (side, result) =>
          ok(side.label === 'services' ? 4 : side.label === 'profiles' ? 2 : undefined)(side, result),
      });
      return [
        {
          target: 'Tab',
          what: "a completion request: `agentpay __complete --sandbox check --service ''`",
          floorLabel: '`node -e 0`',
          floor,
          value: services,
          limit: 1.5,
        },
        {
          target: 'Tab',
          what: "a completion request reading the config file: `agentpay __complete --profile ''`",
          floorLabel: '`node -e 0`',
          floor,
          value: profiles,
          limit: 1.5,
        },
      ];
    },
  };
}
