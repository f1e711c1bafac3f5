// Refused socket handshakes count toward the per-IP auth-failure
// limit like refused API calls, and revoking a credential ends its sockets at
// once (the periodic sweep is only the backstop).
import { io as connect, type Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agentPod, api, startTestServer, TEST_ADMIN_TOKEN, type TestServer } from "../testing/test-server";
import { testProviders } from "../testing/test-databases";
import type { ClientToServerEvents, ServerToClientEvents } from "../wire/socket";

type Client = Socket<ServerToClientEvents, ClientToServerEvents>;

/** How the handshake ends: "connected", or the server's refusal (message and data). */
function handshake(url: string, opts: { token?: string; cookie?: string }) {
  const socket: Client = connect(url, {
    transports: ["websocket"],
    forceNew: true,
    reconnection: false,
    auth: opts.token ? { token: opts.token } : {},
    extraHeaders: opts.cookie ? { cookie: opts.cookie } : {},
  });
  return new Promise<{ outcome: string; data?: unknown; socket: Client }>((resolve) => {
    socket.once("connect", () => resolve({ outcome: "connected", socket }));
    socket.once("connect_error", (e) =>
      resolve({ outcome: e.message, data: (e as Error & { data?: unknown }).data, socket }),
    );
  });
}

/** A subscribed, live socket; resolves `gone` with the time its disconnection was seen. */
async function liveSocket(url: string, token: string, podId: string) {
  const { outcome, socket } = await handshake(url, { token });
  expect(outcome).toBe("connected");
  const gone = new Promise<number>((resolve) => socket.once("disconnect", () => resolve(Date.now())));
  socket.on("tape:events", (_frame, ack) => ack?.());
  await new Promise<void>((resolve, reject) => {
    socket.once("tape:live", () => resolve());
    socket.once("tape:error", (e) => reject(new Error(e.message)));
    socket.emit("tape:subscribe", { podId, afterSeq: 0 });
  });
  return { socket, gone };
}

describe.each(testProviders())("socket credentials on %s", (provider) => {
  describe("failed handshakes", () => {
    let s: TestServer;
    beforeAll(async () => {
      s = await startTestServer(provider, { PODWATCH_AUTH_FAILURES_PER_MINUTE: "3" });
    });
    afterAll(() => s.stop());

    it("count toward the per-IP auth-failure limit shared with the API; past it wrong guesses are refused as rate limited, and a valid credential still connects", async () => {
      const guesses = [
        { token: "pwa_guess-1" },
        { token: "not-even-a-token" },
        { cookie: "pw_share=pws_guess-3" },
      ];
      for (const g of guesses) {
        const { outcome, socket } = await handshake(s.url, g);
        expect(outcome).toBe("authentication required");
        socket.close();
      }
      // Nothing presented is no guess: it is refused, not counted.
      const anonymous = await handshake(s.url, {});
      expect(anonymous.outcome).toBe("authentication required");
      anonymous.socket.close();

      const limited = await handshake(s.url, { token: "pwa_guess-4" });
      expect(limited.outcome).toMatch(/too many failed authentications/);
      expect(limited.data).toMatchObject({ code: "rate_limited" });
      expect((limited.data as { retryAfter: number }).retryAfter).toBeGreaterThan(0);
      limited.socket.close();
      // One guesser behind an IP (a proxy, a NAT) must not lock out everyone else there.
      const right = await handshake(s.url, { token: TEST_ADMIN_TOKEN });
      expect(right.outcome).toBe("connected");
      right.socket.close();
      // The API's limiter saw the socket's failures.
      expect((await api(s.url, "GET", "/api/v1/pods", undefined, { token: "pwa_guess-5" })).status).toBe(429);
    });
  });

  describe("revocation", () => {
    let s: TestServer;
    let podId: string;
    beforeAll(async () => {
      s = await startTestServer(provider);
      ({ podId } = await agentPod(s.url, "revoke", { bot: "implementer" }));
    });
    afterAll(() => s.stop());

    it("revoking an agent token disconnects its sockets at once, and only its sockets", async () => {
      const { id, token } = (
        await api(s.url, "POST", `/api/v1/pods/${podId}/members/bot/tokens`, { label: "socket" })
      ).body as { id: string; token: string };
      const other = (await api(s.url, "POST", `/api/v1/pods/${podId}/members/bot/tokens`, { label: "other" }))
        .body as { token: string };
      const [a, b] = [await liveSocket(s.url, token, podId), await liveSocket(s.url, token, podId)];
      const bystander = await liveSocket(s.url, other.token, podId);
      const revoked = Date.now();
      expect((await api(s.url, "DELETE", `/api/v1/pods/${podId}/tokens/${id}`)).status).toBe(200);
      for (const at of await Promise.all([a.gone, b.gone])) expect(at - revoked).toBeLessThan(3000);
      expect(bystander.socket.connected).toBe(true);
      for (const x of [a, b, bystander]) x.socket.close();
    });

    it("revoking a share link disconnects its sockets at once", async () => {
      const link = (await api(s.url, "POST", `/api/v1/pods/${podId}/share-links`, {})).body as {
        id: string;
        token: string;
      };
      const watcher = await liveSocket(s.url, link.token, podId);
      const revoked = Date.now();
      expect((await api(s.url, "DELETE", `/api/v1/pods/${podId}/share-links/${link.id}`)).status).toBe(200);
      expect((await watcher.gone) - revoked).toBeLessThan(3000);
      watcher.socket.close();
    });

    it("a share link revoked a moment after it was found valid is refused at once to a new socket (a valid lookup is reused for a second, never past a revocation)", async () => {
      const link = (await api(s.url, "POST", `/api/v1/pods/${podId}/share-links`, {})).body as {
        id: string;
        token: string;
      };
      const watcher = await liveSocket(s.url, link.token, podId);
      expect((await api(s.url, "DELETE", `/api/v1/pods/${podId}/share-links/${link.id}`)).status).toBe(200);
      await watcher.gone;
      const again = await handshake(s.url, { token: link.token });
      expect(again.outcome).toBe("authentication required");
      again.socket.close();
      watcher.socket.close();
    });
  });
});
