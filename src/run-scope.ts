import { AsyncLocalStorage } from 'node:async_hooks';
import { type Catalogue, en } from './i18n/en.js';
import type { Language } from './i18n/language.js';
import { SecretRegistry } from './secrets.js';

/** What one run of the program speaks and keeps secret, made once by main.ts. Layers deep below
 * it (a settings parser, the gateway client, the ledger) read it from the async call chain it
 * runs in rather than through every signature; nothing outside a run is ever set. */
export interface RunScope {
  readonly said: Catalogue;
  readonly secrets: SecretRegistry;
}

const scope = new AsyncLocalStorage<RunScope>();
/** Outside a run (a unit test, the build's scripts): English, and only the secrets a caller names. */
const outsideRun: RunScope = { said: en, secrets: new SecretRegistry() };

export async function openRunScope(language: Language): Promise<RunScope> {
  const said = language === 'ru' ? (await import('./i18n/ru.js')).ru : en;
  return { said, secrets: new SecretRegistry() };
}

/** Runs `body` (and everything it calls or starts) in `run`. */
export function inRunScope<T>(run: RunScope, body: () => T): T {
  return scope.run(run, body);
}

const current = (): RunScope => scope.getStore() ?? outsideRun;

/** The catalogue of the run's language. Renderers take it as a parameter instead. */
export function t(): Catalogue {
  return current().said;
}

/** Kept for the rest of the run: everything agentpay writes or keeps is scrubbed of it. */
export function registerSecret(secret: string): void {
  scope.getStore()?.secrets.register(secret);
}

/** `text` with the run's secrets (and every one of `extra`), in every spelling, replaced by ***. */
export function redactSecrets(text: string, extra: readonly string[] = []): string {
  return current().secrets.redact(text, extra);
}
