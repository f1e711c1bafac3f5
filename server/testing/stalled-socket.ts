// A live-tape client that subscribes and then never reads another byte: a raw
// WebSocket over a plain TCP socket (Socket.IO's own client always reads), so
// the server's frames back up in its buffers exactly as behind a stalled peer.
import { randomBytes } from "node:crypto";
import { connect, type Socket } from "node:net";

/** A masked client text frame (RFC 6455 §5.2). */
function frame(text: string): Buffer {
  const payload = Buffer.from(text);
  const len = payload.length;
  const header =
    len < 126 ? Buffer.from([0x81, 0x80 | len]) : Buffer.from([0x81, 0x80 | 126, len >> 8, len & 0xff]);
  const mask = randomBytes(4);
  return Buffer.concat([header, mask, payload.map((b, i) => b ^ mask[i % 4]!)]);
}

/** Unmasked server frames in `buf`; returns the texts and what is left (a partial frame). */
function parseFrames(buf: Buffer): { texts: string[]; rest: Buffer } {
  const texts: string[] = [];
  for (;;) {
    if (buf.length < 2) break;
    let len = buf[1]! & 0x7f;
    let at = 2;
    if (len === 126) [len, at] = [buf.length >= 4 ? buf.readUInt16BE(2) : Infinity, 4];
    else if (len === 127) [len, at] = [buf.length >= 10 ? Number(buf.readBigUInt64BE(2)) : Infinity, 10];
    if (buf.length < at + len) break;
    texts.push(buf.subarray(at, at + len).toString());
    buf = buf.subarray(at + len);
  }
  return { texts, rest: buf };
}

export type StalledSocket = { destroy: () => void };

/**
 * Connects with `token`, subscribes to `podId` after `afterSeq`, then stops reading (and, with
 * `resubscribe`, keeps sending the same subscribe `times` more, one every `everyMs`). Rejects if the handshake is refused.
 */
export function openStalledSocket(
  baseUrl: string,
  opts: { token: string; podId: string; afterSeq: number; resubscribe?: { times: number; everyMs: number } },
): Promise<StalledSocket> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const tcp: Socket = connect(Number(port), hostname);
    let buf: Buffer = Buffer.alloc(0);
    let upgraded = false;
    const fail = (e: Error) => (clearTimeout(timer), tcp.destroy(), reject(e));
    const timer = setTimeout(() => fail(new Error("no handshake within 10 s")), 10_000);
    tcp.on("error", fail);
    tcp.on("connect", () => {
      const key = randomBytes(16).toString("base64");
      tcp.write(
        `GET /socket.io/?EIO=4&transport=websocket HTTP/1.1\r\nHost: ${hostname}:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: ${key}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
      );
    });
    tcp.on("data", (chunk: Buffer) => {
      buf = Buffer.concat([buf, chunk]);
      if (!upgraded) {
        const end = buf.indexOf("\r\n\r\n");
        if (end < 0) return;
        if (!buf.subarray(0, end).toString().startsWith("HTTP/1.1 101"))
          return fail(new Error(`no upgrade: ${buf.subarray(0, end)}`));
        upgraded = true;
        buf = buf.subarray(end + 4);
      }
      const { texts, rest } = parseFrames(buf);
      buf = rest;
      for (const text of texts) {
        if (text.startsWith("0{"))
          tcp.write(frame(`40${JSON.stringify({ token: opts.token })}`)); // engine.io open → Socket.IO connect
        else if (text.startsWith("44")) return fail(new Error(`handshake refused: ${text.slice(2)}`));
        else if (text.startsWith("40")) {
          const subscribe = frame(
            `42${JSON.stringify(["tape:subscribe", { podId: opts.podId, afterSeq: opts.afterSeq }])}`,
          );
          tcp.write(subscribe);
          let more = opts.resubscribe?.times ?? 0;
          if (more) {
            const again = setInterval(
              () => (more-- > 0 && !tcp.destroyed ? tcp.write(subscribe) : clearInterval(again)),
              opts.resubscribe!.everyMs,
            );
            tcp.once("close", () => clearInterval(again));
          }
          tcp.pause(); // from here on, nothing is read: the kernel's buffers fill, then the server's
          tcp.removeAllListeners("data");
          clearTimeout(timer);
          return resolve({ destroy: () => tcp.destroy() });
        }
      }
    });
  });
}
