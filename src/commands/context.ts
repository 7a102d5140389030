import { type Interrupts, noInterrupts } from '../interrupts.js';
import type { Ledger } from '../ledger/ledger.js';
import { Output, type ProcessIo } from '../output.js';
import { configuredEndpoint } from '../purchase/endpoint.js';
import { type GatewaySession, type OpenGatewayOptions, openGatewaySession } from '../purchase/session.js';
import { stateDirectory } from '../settings/directories.js';
import { resolveSettings, type Settings } from '../settings/resolve.js';
import type { GlobalFlags } from '../settings/table.js';
import { embeddedEndpoint } from './embedded-endpoint.js';

/** What every command gets: validated settings, the output streams, and a way to the gateway and the ledger. */
export interface CommandContext {
  settings: Settings;
  out: Output;
  /** The global options as the command line gave them, for a hint that names a command to run again. */
  flags?: GlobalFlags;
  /** SIGINT and SIGTERM (main.ts): the first stops the sessions' look-ups; the command ends with a line. */
  interrupts: Interrupts;
  openGateway(options?: OpenGatewayOptions): Promise<GatewaySession>;
  /** The ledger the settings name, opened on first use and closed when the command ends. */
  openLedger(): Promise<Ledger>;
  /** Lets go of what the command opened (the ledger's connection). */
  close(): Promise<void>;
}

export async function createContext(flags: GlobalFlags, io: ProcessIo): Promise<CommandContext> {
  const [settings, out] = await Promise.all([resolveSettings(flags, io.env), Output.create(io, flags)]);
  for (const warning of settings.warnings) out.warn(warning);
  let ledger: Promise<Ledger> | undefined;
  const interrupts = io.interrupts ?? noInterrupts;
  return {
    settings,
    out,
    flags,
    interrupts,
    openGateway: async (options) => {
      // Play money (--sandbox, --replay) is served in this process by the embedded sandbox.
      const endpoint = settings.sandbox
        ? await embeddedEndpoint(settings, out)
        : await configuredEndpoint(settings, out);
      return openGatewaySession(settings, out, endpoint, { stop: interrupts.signal, ...options });
    },
    openLedger: () => {
      ledger ??= import('../ledger/open-ledger.js')
        .then(({ openLedger }) =>
          openLedger(settings.ledger.value, {
            operator: settings.operator.value,
            env: settings.env,
            stateDirectory: stateDirectory(settings.env),
            byDefault: settings.ledger.source === 'default',
            note: (message) => out.warn(message),
            stop: interrupts.signal,
          }),
        )
        .then((opened) => {
          // An operator role is who the ledger records, so it is who the desk's rules weigh.
          if (opened.recordsAs !== undefined) settings.operator = { ...settings.operator, value: opened.recordsAs };
          return opened;
        });
      return ledger;
    },
    close: async () => {
      const opened = await ledger?.catch(() => undefined);
      await opened?.close();
    },
  };
}
