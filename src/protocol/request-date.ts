/**
 * The spec does not show RequestDate's format (spec 2.1). The default is local time
 * `YYYY-MM-DD HH:mm:ss`, the form such gateways commonly take; `iso` sends UTC ISO 8601.
 */
export const requestDateFormats = ['local', 'iso'] as const;
export type RequestDateFormat = (typeof requestDateFormats)[number];

export function formatRequestDate(date: Date, format: RequestDateFormat): string {
  if (format === 'iso') return date.toISOString();
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ` + `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}
