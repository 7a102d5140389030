/** What a stream yields, in an array (Array.fromAsync is not in Node 20). */
export async function gathered<T>(items: AsyncIterable<T> | Promise<AsyncIterable<T>>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of await items) all.push(item);
  return all;
}
