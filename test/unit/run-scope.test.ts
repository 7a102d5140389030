import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { InterruptedError } from '../../src/errors.js';
import { redactSecrets, registerSecret } from '../../src/run-scope.js';
import { inRun } from '../helpers/in-run.js';

describe('a run of the program', () => {
  it('speaks its own language, however runs interleave, and nothing outside a run changes', async () => {
    const said = (language: 'en' | 'ru') =>
      inRun(language, async () => {
        await sleep(5);
        return new InterruptedError('SIGINT').message;
      });
    const [english, russian] = await Promise.all([said('en'), said('ru')]);
    expect(english).toBe('stopped by Ctrl+C (SIGINT) before it finished');
    expect(russian).toMatch(/^остановлено/);
    expect(new InterruptedError('SIGINT').message).toBe(english);
  });

  it('keeps its own secrets: another run, and code outside any run, never learn them', async () => {
    await inRun('en', async () => {
      registerSecret('run-one-secret');
      await sleep(1);
      expect(redactSecrets('pw run-one-secret')).toBe('pw ***');
    });
    await inRun('en', async () => expect(redactSecrets('pw run-one-secret')).toBe('pw run-one-secret'));
    expect(redactSecrets('pw run-one-secret')).toBe('pw run-one-secret');
    expect(redactSecrets('pw named-here', ['named-here'])).toBe('pw ***');
  });
});
