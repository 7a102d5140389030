import { readFileSync } from 'node:fs';
import { UsageError } from '../errors.js';
import type { ProxyRoute } from '../gateway/http.js';
import type { CassetteRecorder } from '../gateway/recorder.js';
import type { Output } from '../output.js';
import type { ReplayMisses } from '../protocol/replay-miss.js';
import { redactSecrets, t } from '../run-scope.js';
import { redactUrlCredentials } from '../secrets.js';
import { checkConnectionSet } from '../settings/connection-set.js';
import type { NetworkSettings, Settings } from '../settings/resolve.js';
import type { SettingSource } from '../settings/sources.js';

/** Where requests go and as whom: the embedded sandbox or replay, or the configured gateway. */
export interface Endpoint {
  baseUrl: string;
  agentId: string;
  password: string;
  passwordSource: { source: SettingSource; origin?: string | undefined };
  network: { route: ProxyRoute; description: string };
  ca: string | undefined;
  /** --replay: which requests the replay in this process refused, with no recording for them. */
  replayMisses?: ReplayMisses;
  stop?: () => Promise<void>;
}

/** The proxy route the settings ask for: --proxy, else HTTP(S)_PROXY and NO_PROXY, else none. */
export function proxyRouteOf(network: NetworkSettings): { route: ProxyRoute; description: string } {
  if (network.proxy) {
    const where = network.proxy.source === 'flag' ? '--proxy' : t().commands.profileKey('proxy');
    return {
      route: { kind: 'explicit', url: network.proxy.value },
      description: `${redactUrlCredentials(network.proxy.value)} (${where})`,
    };
  }
  if (network.httpProxy || network.httpsProxy) {
    const named = [network.httpsProxy, network.httpProxy, network.noProxy]
      .filter((value) => value !== undefined)
      .map((value) => `${value.origin}=${redactUrlCredentials(value.value)}`);
    return {
      route: {
        kind: 'env',
        httpProxy: network.httpProxy?.value ?? '',
        httpsProxy: network.httpsProxy?.value ?? '',
        noProxy: network.noProxy?.value ?? '',
      },
      description: named.join(', '),
    };
  }
  return { route: { kind: 'direct' }, description: 'direct' };
}

/** The PEM text of --ca-file / AGENTPAY_CA_FILE, checked to hold a certificate. */
function readCaFile(network: NetworkSettings): string | undefined {
  if (!network.caFile) return undefined;
  const path = network.caFile.value;
  const where =
    network.caFile.origin ?? (network.caFile.source === 'flag' ? '--ca-file' : t().commands.profileKey('caFile'));
  let pem: string;
  try {
    pem = readFileSync(path, 'utf8');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new UsageError(t().commands.caUnreadable(path, where, reason));
  }
  if (!pem.includes('-----BEGIN CERTIFICATE-----')) {
    throw new UsageError(t().commands.caNoCertificate(path, where), { hint: t().commands.caHint });
  }
  return pem;
}

/** The gateway the settings name, its password resolved (asked for on a terminal if need be). */
export async function configuredEndpoint(settings: Settings, out: Output): Promise<Endpoint> {
  checkConnectionSet(settings, out.stdin.isTTY === true);
  const network = proxyRouteOf(settings.network);
  const ca = readCaFile(settings.network);
  const { resolvePassword } = await import('../password-source.js');
  // stdin made only if read.
  const io = {
    get stdin() {
      return out.stdin;
    },
    stderr: out.stderr,
    warn: (message: string) => out.warn(message),
  };
  const resolved = await resolvePassword(settings, io);
  return {
    baseUrl: settings.baseUrl.value,
    agentId: settings.agentId.value,
    password: resolved.value,
    passwordSource: { source: resolved.source, origin: resolved.origin },
    network,
    ca,
  };
}

/** --record's directory, made and proved writable before anything is sent: a payment is never made unrecorded
 * because the directory turned out unwritable (docs/replay.md). */
export async function openRecorder(directory: string, password: string): Promise<CassetteRecorder> {
  const { CassetteRecorder, RecordDirectoryError } = await import('../gateway/recorder.js');
  try {
    return CassetteRecorder.open(directory, (text) => redactSecrets(text, [password]));
  } catch (error) {
    if (error instanceof RecordDirectoryError)
      throw new UsageError(t().replay.cannotRecord(error.directory, error.code), { hint: t().replay.nothingSent });
    throw error;
  }
}

/** A cassette that could not be written is told once the command is done: the exchange itself went on. */
export function warnUnrecorded(recorder: CassetteRecorder | undefined, out: Output): void {
  if (recorder?.failure !== undefined) out.warn(t().replay.notRecorded(recorder.failure));
}
