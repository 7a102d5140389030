/** The error `action` throws; fails the test if it throws nothing. */
export function thrown(action: () => unknown): Error {
  try {
    action();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected it to throw');
}

/** The error `action`'s promise rejects with (or `action` throws); fails the test if neither. */
export async function rejection(action: () => unknown): Promise<Error> {
  try {
    await action();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected it to reject');
}
