// A WebSocket client reduced to what a benchmark spectator needs: an upgrade over a plain TCP
// socket, unmasked server frames cut out of the byte stream as Buffers (never decoded to strings
// unless the caller asks), masked text frames out. Thousands of these share one process, so
// nothing is done per frame that a spectator does not need (no UTF-8 validation, no events).
import { randomBytes } from "node:crypto";
import { connect, type Socket } from "node:net";

export type RawWebSocket = {
  send: (text: string) => void;
  close: () => void;
};

export type RawWebSocketHandlers = {
  /** A whole text message (one frame: the server never fragments). The buffer is only valid during the call. */
  onText: (payload: Buffer, ws: RawWebSocket) => void;
  onClose: (why: string) => void;
};

const MASK = randomBytes(4); // one mask for all: the server must unmask, the bench needs no secrecy

function maskedFrame(opcode: number, payload: Buffer): Buffer {
  const len = payload.length;
  const head = len < 126 ? 2 : len < 65536 ? 4 : 10;
  const out = Buffer.allocUnsafe(head + 4 + len);
  out[0] = 0x80 | opcode;
  if (len < 126) out[1] = 0x80 | len;
  else if (len < 65536) {
    out[1] = 0x80 | 126;
    out.writeUInt16BE(len, 2);
  } else {
    out[1] = 0x80 | 127;
    out.writeBigUInt64BE(BigInt(len), 2);
  }
  MASK.copy(out, head);
  for (let i = 0; i < len; i++) out[head + 4 + i] = payload[i]! ^ MASK[i & 3]!;
  return out;
}

/** Opens `path` on `base` (http://host:port) as a WebSocket; resolves once upgraded. */
export function openRawWebSocket(
  base: string,
  path: string,
  handlers: RawWebSocketHandlers,
): Promise<RawWebSocket> {
  const { hostname, port } = new URL(base);
  const tcp: Socket = connect({ host: hostname, port: Number(port), noDelay: true });
  let closed = false;
  const close = (why: string) => {
    if (closed) return;
    closed = true;
    tcp.destroy();
    handlers.onClose(why);
  };
  const ws: RawWebSocket = {
    send: (text) => void (closed || tcp.write(maskedFrame(0x1, Buffer.from(text)))),
    close: () => close("closed by the client"),
  };
  // A frame split across reads: its chunks are kept until `need` bytes are there, then joined once.
  let chunks: Buffer[] = [];
  let held = 0;
  let need = 0;
  /** Handles the whole frames in `buf`; returns where the first partial one starts (setting `need`: its full length, as far as known). */
  const cut = (buf: Buffer): number => {
    let at = 0;
    for (;;) {
      if (buf.length - at < 2) return ((need = 2), at);
      const b1 = buf[at + 1]! & 0x7f;
      const headLen = b1 === 126 ? 4 : b1 === 127 ? 10 : 2;
      if (buf.length - at < headLen) return ((need = headLen), at);
      const len =
        b1 === 126 ? buf.readUInt16BE(at + 2) : b1 === 127 ? Number(buf.readBigUInt64BE(at + 2)) : b1;
      if (buf.length - at < headLen + len) return ((need = headLen + len), at);
      const opcode = buf[at]! & 0x0f;
      const payload = buf.subarray(at + headLen, at + headLen + len);
      at += headLen + len;
      if (opcode === 0x1) handlers.onText(payload, ws);
      else if (opcode === 0x9) tcp.write(maskedFrame(0xa, payload));
      else if (opcode === 0x8) close("closed by the server");
      if (closed) return buf.length;
    }
  };
  const onFrames = (chunk: Buffer) => {
    if (held) {
      chunks.push(chunk);
      held += chunk.length;
      if (held < need) return;
      chunk = Buffer.concat(chunks, held);
      chunks = [];
      held = 0;
    }
    const stop = cut(chunk);
    if (stop < chunk.length) {
      chunks = [chunk.subarray(stop)];
      held = chunk.length - stop;
    }
  };
  return new Promise((resolve, reject) => {
    let head = Buffer.alloc(0);
    const fail = (e: Error) => (clearTimeout(timer), tcp.destroy(), reject(e));
    const timer = setTimeout(() => fail(new Error("no upgrade within 30 s")), 30_000);
    tcp.once("error", fail);
    tcp.on("connect", () => {
      const key = randomBytes(16).toString("base64");
      tcp.write(
        `GET ${path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: ${key}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
      );
    });
    const onHead = (chunk: Buffer) => {
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf("\r\n\r\n");
      if (end < 0) return;
      if (!head.subarray(0, end).toString().startsWith("HTTP/1.1 101"))
        return fail(new Error(`no upgrade: ${head.subarray(0, end)}`));
      clearTimeout(timer);
      tcp.off("data", onHead);
      tcp.off("error", fail);
      tcp.on("error", (e) => close(`error: ${e.message}`));
      tcp.on("close", () => close("connection closed"));
      tcp.on("data", onFrames);
      resolve(ws);
      if (head.length > end + 4) onFrames(head.subarray(end + 4));
    };
    tcp.on("data", onHead);
  });
}
