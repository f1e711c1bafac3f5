import { mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createECDH } from "node:crypto";
import webpush from "web-push";
import { describe, expect, it } from "vitest";
import { newVapidKeyPair, vapidKeys, vapidSubject } from "./vapid-keys";

describe("vapidKeys", () => {
  it("generates a P-256 pair into the data folder once (0600) and reads it back after", () => {
    const path = join(mkdtempSync(join(tmpdir(), "vapid-")), "data", "vapid-keys.json");
    const first = vapidKeys(path, { subject: "mailto:a@b.c" });
    expect(Buffer.from(first.publicKey, "base64url")).toHaveLength(65);
    expect(Buffer.from(first.privateKey, "base64url")).toHaveLength(32);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(vapidKeys(path, { subject: "mailto:a@b.c" })).toEqual(first);
    expect(JSON.parse(readFileSync(path, "utf8")).publicKey).toBe(first.publicKey);
  });

  it("makes pairs web-push signs with: the public half is the private scalar's point", () => {
    for (let i = 0; i < 50; i++) {
      const pair = newVapidKeyPair();
      const ecdh = createECDH("prime256v1");
      ecdh.setPrivateKey(Buffer.from(pair.privateKey, "base64url"));
      expect(ecdh.getPublicKey().toString("base64url")).toBe(pair.publicKey);
      const headers = webpush.getVapidHeaders(
        "https://push.example.com",
        "mailto:a@b.c",
        pair.publicKey,
        pair.privateKey,
        "aes128gcm",
      );
      expect(headers.Authorization).toMatch(/^vapid t=.+, k=/);
    }
  });

  it("prefers the environment's pair and refuses a broken one or a broken file", () => {
    const dir = mkdtempSync(join(tmpdir(), "vapid-"));
    const env = vapidKeys(join(dir, "a.json"), { subject: "mailto:a@b.c" });
    expect(vapidKeys(join(dir, "none.json"), env)).toEqual(env);
    expect(() => vapidKeys(join(dir, "none.json"), { ...env, privateKey: "short" })).toThrow(
      /PODWATCH_VAPID/,
    );
    writeFileSync(join(dir, "broken.json"), "");
    expect(() => vapidKeys(join(dir, "broken.json"), { subject: "mailto:a@b.c" })).toThrow(/Delete it/);
  });

  it("signs as the public URL when it is https, else a mailto", () => {
    expect(vapidSubject(undefined, "https://pods.example.com")).toBe("https://pods.example.com");
    expect(vapidSubject(undefined, "http://127.0.0.1:3000")).toBe("mailto:podwatch@localhost");
    expect(vapidSubject("mailto:ops@example.com", "https://x")).toBe("mailto:ops@example.com");
  });
});
