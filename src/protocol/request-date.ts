// spec 2.1 does not show RequestDate's format: the default is local `YYYY-MM-DD HH:mm:ss`, `iso` sends UTC.
export const requestDateFormats = ['local', 'iso'] as const;
export type RequestDateFormat = (typeof requestDateFormats)[number];

/** The last local date written, by its second: a batch sends hundreds of requests a second. */
let lastLocal = { second: Number.NaN, text: '' };

export function formatRequestDate(date: Date, format: RequestDateFormat): string {
  if (format === 'iso') return date.toISOString();
  const second = Math.floor(date.getTime() / 1000);
  if (second !== lastLocal.second) lastLocal = { second, text: localText(date) };
  return lastLocal.text;
}

function localText(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return (
    `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ` +
    `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`
  );
}
