// The hook's input from stdin, bounded: a tool input can be large (a Write of a whole file), but
// not without limit. Null when it is longer than `maxBytes` (the rest is drained, not read in).
export function readBoundedStdin(stdin: NodeJS.ReadableStream, maxBytes: number): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    stdin.on("data", (c: Buffer | string) => {
      if (over) return;
      const b = typeof c === "string" ? Buffer.from(c) : c;
      size += b.length;
      if (size > maxBytes) {
        over = true;
        chunks.length = 0;
        return;
      }
      chunks.push(b);
    });
    stdin.on("end", () => resolve(over ? null : Buffer.concat(chunks).toString("utf8")));
    stdin.on("error", reject);
  });
}
