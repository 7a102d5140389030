/** Whether SQLite (the ledger, the sandbox state) said another connection holds the lock (BUSY, LOCKED). */
export function isBusy(error: unknown): boolean {
  const code = (error as { errcode?: unknown }).errcode;
  return typeof code === 'number' && ((code & 0xff) === 5 || (code & 0xff) === 6);
}
