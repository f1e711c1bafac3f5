// The hook's input from stdin, bounded: a tool input can be large (a Write of a whole file), but
// not without limit. `text` is null when it is longer than `maxBytes` (the rest is drained, not
// read in); `head` then keeps its first `headBytes`, enough to tell which event it was.
export type StdinInput = { text: string | null; head: Buffer };

export function readBoundedStdin(
  stdin: NodeJS.ReadableStream,
  maxBytes: number,
  headBytes = 64 * 1024,
): Promise<StdinInput> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let head = Buffer.alloc(0);
    let size = 0;
    let over = false;
    stdin.on("data", (c: Buffer | string) => {
      if (over) return;
      const b = typeof c === "string" ? Buffer.from(c) : c;
      size += b.length;
      if (size > maxBytes) {
        over = true;
        head = Buffer.concat([...chunks, b]).subarray(0, headBytes);
        chunks.length = 0;
        return;
      }
      chunks.push(b);
    });
    stdin.on("end", () => {
      if (over) return resolve({ text: null, head });
      const all = Buffer.concat(chunks);
      resolve({ text: all.toString("utf8"), head: all.subarray(0, headBytes) });
    });
    stdin.on("error", reject);
  });
}
