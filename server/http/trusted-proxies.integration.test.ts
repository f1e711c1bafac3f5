// PODWATCH_TRUSTED_PROXIES: behind a trusted proxy, clients are told apart by the address it
// forwards (X-Forwarded-For), for the API's failed authentications, Better Auth's sign-in throttle
// and Socket.IO handshakes alike; without the setting, a client's own X-Forwarded-For (or
// podwatch's internal client-address header) changes nothing. The tests talk from 127.0.0.1,
// playing the proxy.
import { io as connect } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, startTestServer, type TestServer } from "../testing/test-server";
import { testProviders } from "../testing/test-databases";
import { CLIENT_IP_HEADER } from "../access/create-auth";

const LIMITS = { PODWATCH_AUTH_FAILURES_PER_MINUTE: "2", PODWATCH_SIGN_INS_PER_MINUTE: "2" };

/** A wrong token, as a client whose request carries `headers`. */
async function guess(base: string, headers: Record<string, string>) {
  const res = await fetch(`${base}/api/v1/pods`, {
    headers: { authorization: "Bearer pwa_wrong-guess", ...headers },
  });
  await res.text();
  return res.status;
}

async function signIn(base: string, headers: Record<string, string>) {
  const res = await fetch(`${base}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: base, ...headers },
    body: JSON.stringify({ email: "nobody@example.com", password: "not the password" }),
  });
  await res.text();
  return res.status;
}

/** A socket handshake with a wrong token: its refusal's message. */
function handshake(base: string, headers: Record<string, string>) {
  const socket = connect(base, {
    transports: ["websocket"],
    forceNew: true,
    reconnection: false,
    auth: { token: "pwa_wrong-guess" },
    extraHeaders: headers,
  });
  return new Promise<string>((resolve) => {
    socket.once("connect", () => (socket.close(), resolve("connected")));
    socket.once("connect_error", (e) => (socket.close(), resolve(e.message)));
  });
}

const from = (ip: string) => ({ "x-forwarded-for": ip });

describe.each(testProviders())("trusted proxies on %s", (provider) => {
  describe("behind a trusted proxy (PODWATCH_TRUSTED_PROXIES=127.0.0.1)", () => {
    let s: TestServer;
    beforeAll(async () => {
      s = await startTestServer(provider, { ...LIMITS, PODWATCH_TRUSTED_PROXIES: "127.0.0.1" });
    });
    afterAll(() => s.stop());

    it("two clients get separate failed-authentication budgets, shared by the API and sockets", async () => {
      const a = from("198.51.100.1");
      const b = from("198.51.100.2");
      expect([await guess(s.url, a), await guess(s.url, a), await guess(s.url, a)]).toEqual([401, 401, 429]);
      expect(await handshake(s.url, a)).toMatch(/too many failed authentications/);
      // b is another client: its own budget.
      expect(await guess(s.url, b)).toBe(401);
      expect(await handshake(s.url, b)).toBe("authentication required");
      expect(await guess(s.url, b)).toBe(429);
      // A client that writes its own X-Forwarded-For only prepends to what the proxy appends: still a.
      expect(await guess(s.url, from("203.0.113.77, 198.51.100.1"))).toBe(429);
    });

    it("two clients get separate sign-in budgets", async () => {
      const a = from("198.51.100.11");
      expect([await signIn(s.url, a), await signIn(s.url, a), await signIn(s.url, a)]).toEqual([
        401, 401, 429,
      ]);
      expect(await signIn(s.url, from("198.51.100.12"))).toBe(401);
      // podwatch's own client-address header is overwritten, never believed.
      expect(await signIn(s.url, { ...a, [CLIENT_IP_HEADER]: "192.0.2.200" })).toBe(429);
    });
  });

  describe("without trusted proxies", () => {
    let s: TestServer;
    beforeAll(async () => {
      s = await startTestServer(provider, LIMITS);
    });
    afterAll(() => s.stop());

    it("a spoofed X-Forwarded-For changes nothing: every guess from this peer spends one budget", async () => {
      const statuses = [];
      for (const ip of ["198.51.100.1", "198.51.100.2", "198.51.100.3"])
        statuses.push(await guess(s.url, from(ip)));
      expect(statuses).toEqual([401, 401, 429]);
      expect(await handshake(s.url, from("198.51.100.4"))).toMatch(/too many failed authentications/);
      // A valid credential is still let in, whatever the header says.
      expect((await api(s.url, "GET", "/api/v1/pods")).status).toBe(200);
    });

    it("neither X-Forwarded-For nor the internal client-address header moves a sign-in to another bucket", async () => {
      const statuses = [];
      for (const i of [1, 2, 3])
        statuses.push(
          await signIn(s.url, { ...from(`198.51.100.${i}`), [CLIENT_IP_HEADER]: `192.0.2.${i}` }),
        );
      expect(statuses).toEqual([401, 401, 429]);
    });
  });
});
