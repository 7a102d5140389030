// A JSON-lines order row, strictly: JSON.parse keeps the last of a key given twice (which would pay the second
// account) and lossless-json refuses only differing ones, so any top-level key given twice is named.
export function parseJsonRow(text: string): { value: unknown; givenTwice: string | undefined } {
  const value: unknown = JSON.parse(text);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { value, givenTwice: undefined };
  return { value, givenTwice: keyGivenTwice(text) };
}

// A string as runs of plain characters between escapes (as lossless.ts): one step a run, so a
// long string cannot overflow the regular expression's stack.
const tokens = /"[^"\\]*(?:\\.[^"\\]*)*"|[{}[\]]/g;

function keyGivenTwice(text: string): string | undefined {
  const seen = new Set<string>();
  let depth = 0;
  for (const match of text.matchAll(tokens)) {
    const [token] = match;
    if (token === '{' || token === '[') depth++;
    else if (token === '}' || token === ']') depth--;
    else if (depth === 1 && isKey(text, match.index + token.length)) {
      // Decoded: `"acc\u006funt"` is `account` too.
      const key = JSON.parse(token) as string;
      if (seen.has(key)) return key;
      seen.add(key);
    }
  }
  return undefined;
}

/** Whether the string that ends at `end` is a key: a colon follows it, after JSON's white space. */
function isKey(text: string, end: number): boolean {
  let index = end;
  while (text[index] === ' ' || text[index] === '\t' || text[index] === '\n' || text[index] === '\r') index++;
  return text[index] === ':';
}
