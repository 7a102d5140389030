/** spec 5: AgentPassword is sent as plain text or as MD5 (lower-case hex of the UTF-8 bytes). */
export const passwordFormats = ['plain', 'md5'] as const;
export type PasswordFormat = (typeof passwordFormats)[number];

export function md5Hex(text: string): string {
  // node:crypto is loaded when something is hashed, not with this module, and without making
  // this function async.
  const { createHash } = process.getBuiltinModule('node:crypto');
  return createHash('md5').update(text, 'utf8').digest('hex');
}

export function passwordOnWire(password: string, format: PasswordFormat): string {
  return format === 'md5' ? md5Hex(password) : password;
}
