import { mkdirSync, mkdtempSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isolatedEnv, runCli } from '../helpers/cli.js';

/**
 * What `--replay <dir>` reads (docs/replay.md): the directory's own regular files named as
 * cassettes, each at most 8 MiB; a link, a file too large or one that is no cassette refuses
 * the directory by name, never quoting a byte of it; a cassette cut short is named and skipped.
 */
const secret = 'root:$6$Xq1saltsalt$s3cr3t-hash-of-a-password:19000:0:99999:7:::\n';
const answer = '{"TransactinID":1795000000000000001,"ResponseStatus":10,"Message":"OK"}';
const cassette = JSON.stringify({
  format: 'agentpay-cassette/1',
  request: {
    RequestType: 'AccountCheck',
    Service: '3101',
    Account: '700000001',
    Currency: 'KZT',
    TransactionID: '1795000000000000001',
  },
  answer: {
    status: 200,
    headers: { 'content-type': 'application/json' },
    body: Buffer.from(answer).toString('base64'),
    text: answer,
  },
});
const check = ['check', '--service', '3101', '--account', '700000001'];

/** A directory of recordings beside a file of secrets outside it. */
function recordings(): { directory: string; secretFile: string } {
  const root = mkdtempSync(join(tmpdir(), 'agentpay-replay-files-'));
  const directory = join(root, 'cassettes');
  mkdirSync(directory);
  const secretFile = join(root, 'shadow');
  writeFileSync(secretFile, secret);
  return { directory, secretFile };
}

const replay = (directory: string, ...args: string[]) =>
  runCli(['--replay', directory, '--verbose', ...args], { env: isolatedEnv() });

/** Nothing of the secret file is shown: not its first bytes, not its hash. */
function expectNoneOf(text: string): void {
  for (const part of ['root:', 's3cr3t', '$6$', '19000']) expect(text).not.toContain(part);
}

describe('--replay reads only its own regular files', () => {
  it('a cassette name linked to a file elsewhere: exit 2 naming it, not a byte of what it points at', async () => {
    const { directory, secretFile } = recordings();
    writeFileSync(join(directory, '0001-AccountCheck-3101.json'), cassette);
    symlinkSync(secretFile, join(directory, '0002-Payment-3101.json'));
    const result = await replay(directory, ...check);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      `a recording in ${directory} is not readable: 0002-Payment-3101.json: a symbolic link: expected a regular file of the directory (links are not followed)`,
    );
    expectNoneOf(result.stderr + result.stdout);
  });

  it('a link to a cassette inside the directory is refused as well: a link is never followed', async () => {
    const { directory } = recordings();
    writeFileSync(join(directory, 'kept.json.txt'), cassette);
    symlinkSync('kept.json.txt', join(directory, '0001-AccountCheck-3101.json'));
    const result = await replay(directory, ...check);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('0001-AccountCheck-3101.json: a symbolic link');
  });

  it('a file named as a cassette that is not one: exit 2 naming it, never quoting it', async () => {
    const { directory } = recordings();
    writeFileSync(join(directory, '0001-AccountCheck-3101.json'), secret);
    const result = await replay(directory, ...check);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('0001-AccountCheck-3101.json: not JSON: expected a cassette, a JSON object');
    expectNoneOf(result.stderr + result.stdout);
  });

  it('a cassette larger than 8 MiB: exit 2 naming it and the bound, refused before it is read', async () => {
    const { directory } = recordings();
    const large = join(directory, '0001-AccountCheck-3101.json');
    writeFileSync(large, cassette);
    // Sparse: 200 MB on paper, nothing on the disk; read whole, it cost seconds and its size in memory.
    truncateSync(large, 200 * 1024 * 1024);
    const result = await replay(directory, ...check);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      '0001-AccountCheck-3101.json: larger than 8 MiB (8388608 bytes): expected a cassette, at most that',
    );
  });
});

describe('--replay and a cassette cut short while written (a crash, a full disk)', () => {
  it('names each one and skips it; the other recordings answer', async () => {
    const { directory } = recordings();
    writeFileSync(join(directory, '0001-AccountCheck-3101.json'), cassette);
    writeFileSync(join(directory, '0002-Payment-3101.json'), '');
    writeFileSync(join(directory, '0003-Status.json'), cassette.slice(0, 120));
    const result = await replay(directory, ...check);
    expect(result.code, result.stderr).toBe(0);
    for (const file of ['0002-Payment-3101.json', '0003-Status.json'])
      expect(result.stderr).toContain(
        `warning: a recording in ${directory} was cut short while written (${file}: empty, or its JSON ends early): skipped`,
      );
  });
});
