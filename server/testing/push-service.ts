// The test plays a Web Push service: an HTTP server on loopback that takes the
// encrypted pushes a subscription's endpoint receives, checks their VAPID
// signature (RFC 8292) and decrypts them (RFC 8291 over RFC 8188 aes128gcm)
// with keys the test made, as a browser would. Written here with node:crypto
// alone, not with the library the server sends with.
import { createDecipheriv, createECDH, createHmac, createPublicKey, randomBytes, verify } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export type ReceivedPush = {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
};

export class FakePushService {
  readonly received: ReceivedPush[] = [];
  /** Status per endpoint path (default 201); a function may change it per call. */
  status: (path: string) => number = () => 201;
  private server: Server | null = null;
  private waiters: (() => void)[] = [];
  origin = "";

  async start() {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const status = this.status(req.url!);
        if (status < 300)
          this.received.push({ path: req.url!, headers: req.headers, body: Buffer.concat(chunks) });
        res.writeHead(status).end();
        for (const w of this.waiters.splice(0)) w();
      });
    });
    await new Promise<void>((r) => this.server!.listen(0, "127.0.0.1", r));
    this.origin = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  stop() {
    return new Promise<void>((r) => (this.server ? this.server.close(() => r()) : r()));
  }

  /** Waits until `count` pushes reached `path` (or throws after `ms`). */
  async waitFor(path: string, count: number, ms = 10_000): Promise<ReceivedPush[]> {
    const deadline = Date.now() + ms;
    for (;;) {
      const got = this.received.filter((p) => p.path === path);
      if (got.length >= count) return got;
      if (Date.now() > deadline) throw new Error(`expected ${count} pushes at ${path}, got ${got.length}`);
      await new Promise<void>((r) => {
        this.waiters.push(r);
        setTimeout(r, 200);
      });
    }
  }
}

/** A browser's side of a subscription: its P-256 key pair and auth secret. */
export function newSubscriptionKeys() {
  const ecdh = createECDH("prime256v1");
  ecdh.generateKeys();
  const auth = randomBytes(16);
  return {
    ecdh,
    auth,
    p256dh: ecdh.getPublicKey().toString("base64url"),
    authB64: auth.toString("base64url"),
  };
}

const hmac = (key: Buffer, data: Buffer) => createHmac("sha256", key).update(data).digest();

/** RFC 8291 §3.4 and RFC 8188 §2: one aes128gcm record, decrypted with the subscription's keys. */
export function decryptPush(body: Buffer, keys: ReturnType<typeof newSubscriptionKeys>): string {
  const salt = body.subarray(0, 16);
  const idlen = body[20]!;
  const asPublic = body.subarray(21, 21 + idlen);
  const record = body.subarray(21 + idlen);
  const ecdhSecret = keys.ecdh.computeSecret(asPublic);
  const uaPublic = keys.ecdh.getPublicKey();
  const prkKey = hmac(keys.auth, ecdhSecret);
  const ikm = hmac(
    prkKey,
    Buffer.concat([Buffer.from("WebPush: info\0"), uaPublic, asPublic, Buffer.from([1])]),
  );
  const prk = hmac(salt, ikm);
  const cek = hmac(prk, Buffer.from("Content-Encoding: aes128gcm\0\x01", "binary")).subarray(0, 16);
  const nonce = hmac(prk, Buffer.from("Content-Encoding: nonce\0\x01", "binary")).subarray(0, 12);
  const decipher = createDecipheriv("aes-128-gcm", cek, nonce);
  decipher.setAuthTag(record.subarray(record.length - 16));
  const padded = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()]);
  // The last record: data, then the delimiter 0x02, then zero padding.
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  if (padded[end] !== 2) throw new Error("no last-record delimiter");
  return padded.subarray(0, end).toString("utf8");
}

/** RFC 8292: `Authorization: vapid t=<ES256 JWT>, k=<public key>`; returns the JWT's claims once its signature verifies with k. */
export function verifyVapid(
  authorization: string,
  expectedPublicKey: string,
): { aud: string; exp: number; sub: string } {
  const m = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(authorization);
  if (!m) throw new Error(`not a vapid authorization: ${authorization}`);
  const [, jwt, k] = m;
  if (k !== expectedPublicKey) throw new Error("k is not the server's VAPID public key");
  const [h, p, s] = jwt!.split(".");
  const header = JSON.parse(Buffer.from(h!, "base64url").toString());
  if (header.alg !== "ES256") throw new Error(`alg ${header.alg}`);
  const point = Buffer.from(k, "base64url");
  const key = createPublicKey({
    key: {
      kty: "EC",
      crv: "P-256",
      x: point.subarray(1, 33).toString("base64url"),
      y: point.subarray(33, 65).toString("base64url"),
    },
    format: "jwk",
  });
  const ok = verify(
    "sha256",
    Buffer.from(`${h}.${p}`),
    { key, dsaEncoding: "ieee-p1363" },
    Buffer.from(s!, "base64url"),
  );
  if (!ok) throw new Error("the VAPID signature does not verify");
  return JSON.parse(Buffer.from(p!, "base64url").toString());
}
