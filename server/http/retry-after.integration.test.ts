// Every 429 says when to come back: the API's limit on failed authentications,
// and Better Auth's own sign-in throttle.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, startTestServer, type TestServer } from "../testing/test-server";

describe("Retry-After on 429", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer("sqlite", {
      PODWATCH_AUTH_FAILURES_PER_MINUTE: "3",
      PODWATCH_SIGN_INS_PER_MINUTE: "2",
    });
  });
  afterAll(() => s.stop());

  it("after too many failed authentications", async () => {
    const answers = [];
    for (let i = 0; i < 4; i++)
      answers.push(await api(s.url, "GET", "/api/v1/pods", undefined, { token: `pwa_guess-${i}` }));
    expect(answers.map((a) => a.status)).toEqual([401, 401, 401, 429]);
    const limited = answers[3]!;
    expect(limited.body.error.code).toBe("rate_limited");
    const after = Number(limited.headers.get("retry-after"));
    expect(after).toBeGreaterThanOrEqual(1);
    expect(after).toBeLessThanOrEqual(60);
  });

  it("past the limit a valid credential still works: one guesser behind an IP cannot lock out the rest", async () => {
    expect((await api(s.url, "GET", "/api/v1/pods", undefined, { token: "pwa_guess-again" })).status).toBe(
      429,
    );
    expect((await api(s.url, "GET", "/api/v1/pods")).status).toBe(200);
  });

  it("after too many password sign-ins", async () => {
    const signIn = () =>
      fetch(`${s.url}/api/auth/sign-in/email`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: s.url },
        body: JSON.stringify({ email: "nobody@example.com", password: "not the password" }),
      });
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await signIn());
    expect(answers.map((a) => a.status)).toEqual([401, 401, 429]);
    const after = Number(answers[2]!.headers.get("retry-after"));
    expect(after).toBeGreaterThanOrEqual(1);
    expect(after).toBeLessThanOrEqual(60);
  });
});
