import { describe, expect, it } from 'vitest';
import { closestName } from '../../src/closest-name.js';

const columns = ['service', 'account', 'currency', 'invoice-id', 'invoice', 'amount', 'key'];

describe('closestName: the name a typo most likely meant', () => {
  it.each([
    ['acount', 'account'],
    ['Acount', 'account'],
    ['acocunt', 'account'],
    ['amout', 'amount'],
    ['srvice', 'service'],
    ['invoiceid', 'invoice-id'],
    ['kye', 'key'],
  ])('%s: %s', (typed, meant) => {
    expect(closestName(typed, columns)).toBe(meant);
  });

  it.each(['colour', 'ky', 'x', 'accounting-code'])('%s: none (too far for a typo)', (typed) => {
    expect(closestName(typed, columns)).toBeUndefined();
  });

  it('none when two are as likely', () => {
    expect(closestName('cat', ['bat', 'hat'])).toBeUndefined();
  });
});
