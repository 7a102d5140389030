// toFixed(0) rather than String(n): docs/performance.md "Bulk runs at scale" says why.
export const wholeNumberText = (whole: number): string => whole.toFixed(0);
