import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxCredentials } from '../../src/sandbox/catalogue.js';
import { isolatedEnv, jsonLines, runCli } from '../helpers/cli.js';
import { type ScriptedServer, sandboxResponder, startScriptedServer } from '../helpers/misbehaving-server.js';
import { selfSignedCertificate } from '../helpers/tls.js';

describe('TLS is verified', () => {
  let server: ScriptedServer;
  let certPath: string;
  let env: Record<string, string>;
  beforeAll(async () => {
    const certificate = await selfSignedCertificate();
    certPath = certificate.certPath;
    server = await startScriptedServer(sandboxResponder(), certificate);
    env = isolatedEnv({
      AGENTPAY_BASE_URL: server.baseUrl,
      AGENTPAY_AGENT_ID: sandboxCredentials.agentId,
      AGENTPAY_PASSWORD: sandboxCredentials.password,
    });
  });
  afterAll(() => server.close());
  const pay = ['pay', '--service', '201', '--account', 'tls', '--amount', '5', '--json'];

  it.each([
    { name: 'by default', extra: {} },
    { name: 'even with NODE_TLS_REJECT_UNAUTHORIZED=0', extra: { NODE_TLS_REJECT_UNAUTHORIZED: '0' } },
  ])('a self-signed certificate is refused $name: exit 4, nothing sent', async ({ extra }) => {
    const result = await runCli(pay, { env: { ...env, ...extra } });
    expect(result.code).toBe(4);
    expect(result.stderr).toContain(
      'the TLS certificate is not trusted (DEPTH_ZERO_SELF_SIGNED_CERT); nothing was sent',
    );
    expect(result.stderr).toContain('--ca-file <pem>');
    expect(server.received).toHaveLength(0);
  });

  it('with --ca-file (or AGENTPAY_CA_FILE) naming its certificate, it works', async () => {
    const result = await runCli(['--ca-file', certPath, ...pay], { env });
    expect(result.code).toBe(0);
    expect(jsonLines(result.stdout)[0]).toMatchObject({ state: 'success', account: 'tls' });
    const viaEnv = await runCli(['--json', 'doctor'], { env: { ...env, AGENTPAY_CA_FILE: certPath } });
    expect(viaEnv.code).toBe(0);
    expect(JSON.parse(viaEnv.stdout)).toMatchObject({
      settings: { caFile: { value: certPath, source: 'env', origin: 'AGENTPAY_CA_FILE' } },
      gateway: { ok: true },
    });
  });

  it('a --ca-file without a certificate is a usage error', async () => {
    const path = join(env.HOME!, 'not-a-cert.pem');
    writeFileSync(path, 'hello');
    const result = await runCli(['--ca-file', path, ...pay], { env });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`the CA file ${path} (--ca-file) holds no PEM certificate`);
  });
});
