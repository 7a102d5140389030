import type { Language } from '../../src/i18n/language.js';
import { inRunScope, openRunScope } from '../../src/run-scope.js';

/** Runs `body` as one run of the program in `language` (main.ts makes one a process): its language, its secrets. */
export async function inRun<T>(language: Language, body: () => Promise<T>): Promise<T> {
  return inRunScope(await openRunScope(language), body);
}
