import { type Catalogue, en } from './en.js';
import type { Language } from './language.js';

/**
 * The catalogue this process speaks, chosen once at start-up (cli.ts, from the `lang`
 * setting) before anything is said. Renderers take it as a parameter; errors raised deep in
 * the layers (the gateway client, the purchase layer) read it here. Only the chosen
 * language's module is loaded.
 */
let chosen: Catalogue = en;

export function t(): Catalogue {
  return chosen;
}

export async function useLanguage(language: Language): Promise<Catalogue> {
  chosen = language === 'ru' ? (await import('./ru.js')).ru : en;
  return chosen;
}
