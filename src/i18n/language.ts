/** The languages agentpay speaks; English is the default and the source of the catalogue's keys. */
export const languages = ['en', 'ru'] as const;
export type Language = (typeof languages)[number];

/** The language the system locale asks for: the first of LC_ALL, LC_MESSAGES and LANG that is
 * set and not empty (POSIX order), read by its language part (`ru_RU.UTF-8` -> ru). English
 * for anything else (`C`, `POSIX`, `de_DE`), so an unknown locale never gives half a screen. */
export function languageOfLocale(env: NodeJS.ProcessEnv): Language {
  const locale = [env.LC_ALL, env.LC_MESSAGES, env.LANG].find((value) => value !== undefined && value !== '');
  const language = locale?.split(/[_.@-]/)[0]?.toLowerCase();
  return language === 'ru' ? 'ru' : 'en';
}

/** A text in every language agentpay speaks: one left out fails the type-check. */
export type Said = Readonly<Record<Language, string>>;
