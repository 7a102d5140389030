/**
 * A whole number's decimal digits, made afresh. `${n}` and String(n) go through V8's cache of
 * number texts, which lives in its old generation: a text it holds outlives the row that made
 * it and counts as surviving the young generation's collections, which V8 answers by growing
 * the young generation. A text plan of 1,000,000 rows, one `line N` each, peaked ~20 MB higher
 * on Node 24 for it, and rewriting a results file of as many rows grew the heap by ~30 MB at
 * once (docs/performance.md, "Bulk runs at scale"). toFixed(0) writes the same digits for any
 * line or count (below 10^21) without the cache.
 */
export const wholeNumberText = (whole: number): string => whole.toFixed(0);
