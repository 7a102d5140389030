// The name a typo most likely meant: the nearest by optimal string alignment (a swap of neighbours is one edit,
// `acocunt`), if near enough and no other is as likely; else undefined.
export function closestName(typed: string, names: readonly string[]): string | undefined {
  const word = typed.trim().toLowerCase();
  // A third of the word at most, and never more than 2: `key` is no typo of `amount`.
  const furthest = Math.min(2, Math.floor(word.length / 3));
  // As near, the one that begins as the word does (`acount`: account, not amount) is meant.
  // Lengths further apart than that are further apart in edits too, so they are never measured.
  const ranked = names
    .filter((name) => Math.abs(name.length - word.length) <= furthest)
    .map((name) => ({ name, distance: editDistance(word, name.toLowerCase()), prefix: sharedPrefix(word, name) }))
    .filter(({ distance }) => distance <= furthest)
    .sort((a, b) => a.distance - b.distance || b.prefix - a.prefix);
  const [first, second] = ranked;
  if (first === undefined) return undefined;
  return second !== undefined && second.distance === first.distance && second.prefix === first.prefix
    ? undefined
    : first.name;
}

const sharedPrefix = (word: string, name: string) => {
  let length = 0;
  while (length < word.length && word[length] === name[length]?.toLowerCase()) length++;
  return length;
};

/** Insertions, deletions, substitutions and swaps of neighbours that make `a` into `b`. */
function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const row = rows[i]!;
      const above = rows[i - 1]!;
      row[j] = Math.min(above[j]! + 1, row[j - 1]! + 1, above[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        row[j] = Math.min(row[j]!, rows[i - 2]![j - 2]! + 1);
    }
  }
  return rows[a.length]![b.length]!;
}
