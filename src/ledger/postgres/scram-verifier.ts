import { createHash, createHmac, pbkdf2Sync, randomBytes } from 'node:crypto';

/** The SCRAM-SHA-256 verifier PostgreSQL stores for a password (RFC 5802, RFC 7677), sent instead
 * of it as psql's \password does, so no server log holds the password. UTF-8 bytes, no SASLprep. */
export function scramVerifier(password: string, iterations = 4096, salt = randomBytes(16)): string {
  const salted = pbkdf2Sync(Buffer.from(password.normalize('NFKC'), 'utf8'), salt, iterations, 32, 'sha256');
  const hmac = (key: Buffer, text: string) => createHmac('sha256', key).update(text).digest();
  const storedKey = createHash('sha256').update(hmac(salted, 'Client Key')).digest();
  const serverKey = hmac(salted, 'Server Key');
  const b64 = (bytes: Buffer) => bytes.toString('base64');
  return `SCRAM-SHA-256$${iterations}:${b64(salt)}$${b64(storedKey)}:${b64(serverKey)}`;
}
