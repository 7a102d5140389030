import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generate } from 'selfsigned';

const day = 24 * 60 * 60 * 1000;

/**
 * A self-signed certificate for 127.0.0.1, made in Node (no openssl on PATH needed), and its
 * PEM written to a temporary file for --ca-file. It is its own CA, as `openssl req -x509` makes.
 */
export async function selfSignedCertificate(): Promise<{ key: string; cert: string; certPath: string }> {
  const notBeforeDate = new Date(Date.now() - day);
  const made = await generate([{ name: 'commonName', value: '127.0.0.1' }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    notBeforeDate,
    notAfterDate: new Date(notBeforeDate.getTime() + 3 * day),
    extensions: [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', digitalSignature: true, keyCertSign: true, critical: true },
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] },
    ],
  });
  const certPath = join(mkdtempSync(join(tmpdir(), 'agentpay-tls-')), 'cert.pem');
  writeFileSync(certPath, made.cert);
  return { key: made.private, cert: made.cert, certPath };
}
