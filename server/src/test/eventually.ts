/** How a wait polls; every bound is a safety net for a busy machine, not a timing target. */
export interface WaitOptions {
  /** What the test waits for, named in the failure. */
  what?: string;
  limitMs?: number;
  intervalMs?: number;
  /** A read that throws (a node restarting, a refused connection) is read again instead of failing the wait. */
  retryErrors?: boolean;
}

/** Polls `read` until `check` holds for its value, and returns that value; fails with the last one after `limitMs`. */
export async function eventually<T>(
  read: () => Promise<T> | T,
  check: (value: T) => boolean,
  { what = "condition", limitMs = 30_000, intervalMs = 20, retryErrors = false }: WaitOptions = {},
): Promise<T> {
  const deadline = Date.now() + limitMs;
  let last: unknown;
  for (;;) {
    try {
      last = await read();
      if (check(last as T)) return last as T;
    } catch (error) {
      if (!retryErrors) throw error;
      last = error;
    }
    if (Date.now() > deadline) throw new Error(`${what}: not met in ${limitMs / 1000} s (last: ${describe(last)})`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** Polls `check` until it gives a value (neither undefined nor false), and returns it. */
export function until<T>(
  check: () => Promise<T | undefined | false> | T | undefined | false,
  what?: string,
  limitMs?: number,
): Promise<T> {
  return eventually(check, (value) => value !== undefined && value !== false, { what, limitMs }) as Promise<T>;
}

function describe(value: unknown): string {
  if (value instanceof Error) return value.message;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
