/** The moment the desk-rule tests judge at (a fixed afternoon), and times before it. */
export const now = new Date(2026, 10, 23, 15, 0, 0);
export const minutesAgo = (minutes: number) => new Date(now.getTime() - minutes * 60_000).toISOString();
export const yesterday = new Date(2026, 10, 22, 23, 0, 0).toISOString();
