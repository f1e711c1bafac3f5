// A webhook receiver on loopback for tests across nodes: it verifies every delivery's Standard
// Webhooks signature itself, records each accepted message, and can hold the attempts that
// arrive while `holding` is set (a receiver that has not answered yet) until released.
import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** Verifies a delivery as the Standard Webhooks spec says a receiver must. */
export function verifyStandardWebhook(secret: string, headers: IncomingHttpHeaders, body: string): boolean {
  const id = String(headers["webhook-id"] ?? "");
  const timestamp = String(headers["webhook-timestamp"] ?? "");
  const signatures = String(headers["webhook-signature"] ?? "").split(" ");
  if (!id || !/^\d+$/.test(timestamp) || Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) return false;
  const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64");
  const expected = Buffer.from(
    createHmac("sha256", key).update(`${id}.${timestamp}.${body}`).digest("base64"),
  );
  return signatures.some((s) => {
    const [version, sig] = s.split(",");
    const given = Buffer.from(sig ?? "");
    return version === "v1" && given.length === expected.length && timingSafeEqual(given, expected);
  });
}

export class WebhookReceiver {
  /** The webhook-id of every accepted (2xx-answered) delivery, in order. */
  readonly accepted: string[] = [];
  /** Every attempt that arrived, held or not. */
  arrived = 0;
  badSignatures = 0;
  secret = "";
  /** While set, arriving attempts are held unanswered (their webhook-ids in `held`). */
  holding = false;
  readonly held: { id: string; answer: (status: number) => void }[] = [];
  private server: Server | null = null;
  private port = 0;

  async up() {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c) => chunks.push(c));
      req.on("end", () => {
        this.arrived++;
        const id = String(req.headers["webhook-id"]);
        if (
          !this.secret ||
          !verifyStandardWebhook(this.secret, req.headers, Buffer.concat(chunks).toString("utf8"))
        ) {
          this.badSignatures++;
          return void res.writeHead(401).end("bad signature");
        }
        if (this.holding)
          return void this.held.push({
            id,
            answer: (status) => void (res.headersSent || res.writeHead(status).end()),
          });
        this.accepted.push(id);
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((r) => this.server!.listen(0, "127.0.0.1", r));
    this.port = (this.server.address() as AddressInfo).port;
  }

  async down() {
    const s = this.server;
    this.server = null;
    if (!s) return;
    for (const h of this.held.splice(0)) h.answer(503);
    s.closeAllConnections();
    await new Promise<void>((r) => s.close(() => r()));
  }

  get url() {
    return `http://127.0.0.1:${this.port}/hook`;
  }

  duplicates() {
    return this.accepted.length - new Set(this.accepted).size;
  }
}
