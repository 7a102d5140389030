import type { OptionDefinition } from '../options/definition.js';
import * as parse from './parsers.js';

/** Recording a gateway's answers and replaying them (docs/replay.md). Flags only: a run records or replays because it was asked to. */
export const recordingSettings = {
  record: {
    flag: '--record <dir>',
    parse: parse.text,
    defaultText: 'off',
    help: {
      en: 'write every exchange with the gateway to this directory, one file each, without the password',
      ru: 'записывать каждый обмен со шлюзом в этот каталог, по файлу на обмен, без пароля',
    },
    docs: "write every answered exchange with the gateway (check, pay, status, batches) to this directory as one JSON file each: the request without the password, the answer's status, Content-Type and bytes as received (docs/replay.md); the directory is made if missing and refused before anything is sent if it cannot be written",
  },
  replay: {
    flag: '--replay <dir>',
    parse: parse.text,
    defaultText: 'off',
    help: {
      en: 'talk to an embedded gateway that answers with the recordings in this directory (agentpay sandbox --replay serves them)',
      ru: 'работать со встроенным шлюзом, который отвечает записями из этого каталога (agentpay sandbox --replay раздаёт их)',
    },
    docs: 'talk to an embedded gateway that answers with the recordings of `--record` in this directory, as `--sandbox` does with its model (docs/replay.md); a request with no recording gets HTTP 404; `agentpay sandbox --replay <dir>` serves them on a port; the code table is the one configured for a real gateway',
  },
  replayFallback: {
    flag: '--replay-fallback',
    defaultText: 'off',
    help: {
      en: 'with --replay: the sandbox answers what was not recorded',
      ru: 'вместе с --replay: песочница отвечает на то, что не было записано',
    },
    docs: 'with `--replay`: a request with no recording is answered by the embedded sandbox instead of refused',
  },
} as const satisfies Record<string, OptionDefinition>;
