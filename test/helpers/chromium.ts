import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { installCommand, toolPath } from './system-tools.js';

/**
 * Debian's headless Chromium driven over the DevTools protocol on a pipe
 * (`--remote-debugging-pipe`: JSON messages ended by NUL on fds 3 and 4), so no port is opened
 * and no WebSocket client or npm package is needed. A fresh profile in a temp dir, killed after.
 * `.ci/run` installs chromium; on a machine without it the test fails saying so.
 */
export function chromiumPath(): string {
  const path = toolPath('chromium');
  if (path === undefined)
    throw new Error(
      `chromium is not installed: ${installCommand(['chromium'])} (.ci/run installs it) to run the HTML report tests`,
    );
  return path;
}

interface Page {
  /** Evaluates a JavaScript expression in the page and returns its value. */
  evaluate(expression: string): Promise<unknown>;
  /** The messages of every alert, confirm or prompt the page tried to open. */
  dialogs: string[];
  close(): Promise<void>;
}

export interface Browser {
  /** A new tab at `url`, once its load event fired. */
  open(url: string): Promise<Page>;
  close(): Promise<void>;
}

type Message = {
  id?: number;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: { message: string };
  sessionId?: string;
};

type Send = (method: string, params?: Record<string, unknown>, sessionId?: string) => Promise<Message>;

/** One browser for a file's tests (a launch costs more than a tab): each test opens its own tab. */
export function launchChromium(): Browser {
  const profile = mkdtempSync(join(tmpdir(), 'agentpay-chromium-'));
  const args = [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--no-first-run',
    '--no-default-browser-check',
    '--remote-debugging-pipe',
    `--user-data-dir=${profile}`,
    'about:blank',
  ];
  const child: ChildProcess = spawn(chromiumPath(), args, { stdio: ['ignore', 'ignore', 'ignore', 'pipe', 'pipe'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const input = child.stdio[3] as Writable;
  const output = child.stdio[4] as Readable;
  const waiting = new Map<number, { resolve: (m: Message) => void; reject: (e: Error) => void }>();
  const listeners: ((m: Message) => void)[] = [];
  let buffered = '';
  output.setEncoding('utf8').on('data', (chunk: string) => {
    buffered += chunk;
    let end = buffered.indexOf('\0');
    while (end >= 0) {
      const message = JSON.parse(buffered.slice(0, end)) as Message;
      buffered = buffered.slice(end + 1);
      end = buffered.indexOf('\0');
      if (message.id !== undefined) {
        const pending = waiting.get(message.id);
        waiting.delete(message.id);
        if (message.error) pending?.reject(new Error(message.error.message));
        else pending?.resolve(message);
      } else listeners.forEach((listener) => listener(message));
    }
  });
  let nextId = 1;
  const send: Send = (method, params = {}, sessionId) =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      waiting.set(id, { resolve, reject });
      input.write(`${JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) })}\0`);
    });
  const close = async () => {
    await send('Browser.close').catch(() => undefined);
    const killer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(killer);
    rmSync(profile, { recursive: true, force: true });
  };
  return { open: (url) => openTab(send, listeners, url), close };
}

async function openTab(send: Send, listeners: ((m: Message) => void)[], url: string): Promise<Page> {
  const target = await send('Target.createTarget', { url: 'about:blank' });
  const targetId = target.result!.targetId as string;
  const close = async () => {
    await send('Target.closeTarget', { targetId }).catch(() => undefined);
  };
  try {
    const attached = await send('Target.attachToTarget', { targetId, flatten: true });
    const sessionId = attached.result!.sessionId as string;
    const dialogs: string[] = [];
    const loaded = new Promise<void>((resolve) =>
      listeners.push((m) => {
        if (m.sessionId !== sessionId) return;
        if (m.method === 'Page.loadEventFired') resolve();
        if (m.method === 'Page.javascriptDialogOpening') {
          dialogs.push(String(m.params?.message));
          void send('Page.handleJavaScriptDialog', { accept: true }, sessionId);
        }
      }),
    );
    await send('Page.enable', {}, sessionId);
    await send('Runtime.enable', {}, sessionId);
    await send('Page.navigate', { url }, sessionId);
    await loaded;
    const evaluate = async (expression: string) => {
      const answer = await send('Runtime.evaluate', { expression, returnByValue: true }, sessionId);
      return (answer.result?.result as { value?: unknown } | undefined)?.value;
    };
    return { evaluate, dialogs, close };
  } catch (error) {
    await close();
    throw error;
  }
}
