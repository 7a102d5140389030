import { isPlainDecimal } from '../protocol/money.js';
import type { RegistryLayout } from './layout.js';

// A registry's amounts: each cell read as a plain decimal in the layout's notation, the rows summed exactly.

/** A cell's amount as a plain decimal (`1 500,00` with a decimal comma is `1500.00`), or undefined. */
export function readAmount(cell: string, decimal: RegistryLayout['decimal']): string | undefined {
  // Most cells are plain already (`1500.00`): no copy made of them.
  if (decimal === 'point' && isPlainDecimal(cell)) return cell;
  const text = cell.replace(/[\s\u00a0\u202f]/g, '');
  const other = decimal === 'comma' ? '.' : ',';
  if (text.includes(other)) return undefined;
  const plain = decimal === 'comma' ? text.replace(',', '.') : text;
  return isPlainDecimal(plain) ? plain : undefined;
}

// The exact sum of many plain decimals in whole units of the finest scale seen (money.ts addDecimals without
// re-reading the sum as text): short amounts are summed as doubles while exact (below 2^53), BigInt after.
export class DecimalSum {
  private units = 0n;
  private small = 0;
  private scale = 0;

  add(amount: string): void {
    const point = amount.indexOf('.');
    const scale = point === -1 ? 0 : amount.length - point - 1;
    if (scale > this.scale) {
      this.flush();
      this.units *= 10n ** BigInt(scale - this.scale);
      this.scale = scale;
    }
    const units = amount.length <= 15 ? Math.round(Number(amount) * 10 ** this.scale) : Number.NaN;
    if (units <= 1e15) {
      this.small += units;
      if (this.small > 2 ** 52) this.flush();
      return;
    }
    const [whole = '0', fraction = ''] = amount.split('.');
    this.units += BigInt(whole + fraction.padEnd(this.scale, '0'));
  }

  value(): string {
    this.flush();
    const digits = this.units.toString().padStart(this.scale + 1, '0');
    return this.scale === 0 ? digits : `${digits.slice(0, -this.scale)}.${digits.slice(-this.scale)}`;
  }

  private flush(): void {
    this.units += BigInt(this.small);
    this.small = 0;
  }
}
