import { closeSync, createReadStream, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Finding } from '../../registry/compare.js';
import { linesOf } from '../../text-lines.js';

/**
 * One list of the ledger's side, kept while the ledger is streamed, to be listed after the
 * registry's own: in memory while short, then in a temporary file, one JSON line a finding. A
 * registry of a few rows against a large journal has almost every payment only in the ledger,
 * and an array of them all grew with the journal.
 */
export class FindingSpool {
  private readonly held: Finding[] = [];
  private file: { directory: string; fd: number } | undefined;
  private pending = '';

  /** `inMemory`: how many are held before they go to the file. */
  constructor(private readonly inMemory = 4096) {}

  add(finding: Finding): void {
    if (this.file === undefined && this.held.length < this.inMemory) {
      this.held.push(finding);
      return;
    }
    this.file ??= openSpoolFile();
    this.pending += `${JSON.stringify(finding)}\n`;
    // Written a megabyte at a time: one write a finding would cost more than the finding.
    if (this.pending.length > 1 << 20) this.flush();
  }

  /** The findings in the order added. */
  async *findings(): AsyncGenerator<Finding> {
    yield* this.held;
    if (this.file === undefined) return;
    this.flush();
    // A chunk's lines at a time, pulled as they are listed (readline's iterator queued lines ahead of a slow reader).
    for await (const lines of linesOf(
      createReadStream(join(this.file.directory, spoolName), { highWaterMark: 64 * 1024 }),
      'utf8',
    )) {
      for (const line of lines) if (line !== '') yield JSON.parse(line) as Finding;
    }
  }

  /** Removes the file, if there is one: in a `finally`, so an interrupted run leaves none behind. */
  remove(): void {
    if (this.file === undefined) return;
    closeSync(this.file.fd);
    rmSync(this.file.directory, { recursive: true, force: true });
    this.file = undefined;
  }

  private flush(): void {
    if (this.file === undefined || this.pending === '') return;
    writeSync(this.file.fd, this.pending);
    this.pending = '';
  }
}

const spoolName = 'findings.jsonl';

/** A file in a directory of its own (mode 0700: the findings name accounts), under the system's temporary directory. */
function openSpoolFile(): { directory: string; fd: number } {
  const directory = mkdtempSync(join(tmpdir(), 'agentpay-findings-'));
  return { directory, fd: openSync(join(directory, spoolName), 'wx', 0o600) };
}
