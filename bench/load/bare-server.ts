// The generator's yardstick: a bare node http server that does the least an ingest endpoint must
// (read the body, JSON.parse it, answer 201 with a small JSON acknowledgement) and nothing else.
// bench/load/generator-ceiling.ts runs it as a child process and says what rate the generator
// reaches against it. It prints "listening on <port>" and exits when its stdin closes (the bench
// ended, however it ended).
import { createServer } from "node:http";

let seq = 0;
const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (c: Buffer) => chunks.push(c));
  req.on("end", () => {
    const event = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { id?: string };
    const text = JSON.stringify({ events: [{ id: event.id ?? null, seq: ++seq, hash: "0".repeat(64) }] });
    res.writeHead(201, {
      "content-type": "application/json; charset=utf-8",
      "content-length": Buffer.byteLength(text),
    });
    res.end(text);
  });
});
server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  process.stdout.write(`listening on ${typeof address === "object" && address ? address.port : 0}\n`);
});
process.stdin.on("end", () => process.exit(0)).resume();
