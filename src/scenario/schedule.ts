// How --jobs runs cases and iterations: `count` units, at most `jobs` at once in file order; the listener's
// calls for each released in file order, the first unfinished one's live and later ones' once it is done.
export async function runPool(count: number, jobs: number, work: (index: number) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < count) await work(next++);
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(jobs, count)) }, lane));
}

export function inFileOrder(count: number) {
  const waiting: (() => void)[][] = Array.from({ length: count }, () => []);
  const finished: boolean[] = new Array<boolean>(count).fill(false);
  let head = 0;
  return {
    emit(index: number, event: () => void): void {
      if (index === head) event();
      else waiting[index]!.push(event);
    },
    finish(index: number): void {
      finished[index] = true;
      while (head < count && finished[head]) {
        head++;
        if (head < count) {
          for (const event of waiting[head]!) event();
          waiting[head] = [];
        }
      }
    },
  };
}
