// Waits in a test until a read satisfies a predicate (polling; bounded by `ms`).
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function eventually<T>(
  read: () => Promise<T>,
  ok: (v: T) => boolean,
  what: string,
  ms = 15_000,
  every = 50,
): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (ok(v)) return v;
    if (Date.now() > until)
      throw new Error(`timed out waiting for ${what}: ${JSON.stringify(v).slice(0, 500)}`);
    await sleep(every);
  }
}
