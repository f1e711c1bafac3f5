import type { IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import { clientIpResolver, resolveClientIp, trustList } from "./client-ip";

const proxies = trustList(["127.0.0.1", "10.0.0.0/8", "fd00::/8"]);
const request = (peer: string, xff?: string | string[]) =>
  ({
    socket: { remoteAddress: peer },
    headers: xff === undefined ? {} : { "x-forwarded-for": xff },
  }) as unknown as IncomingMessage;

describe("resolveClientIp", () => {
  it("ignores X-Forwarded-For from a peer that is not a trusted proxy", () => {
    expect(resolveClientIp("203.0.113.9", "198.51.100.1", proxies)).toBe("203.0.113.9");
    expect(resolveClientIp("203.0.113.9", undefined, proxies)).toBe("203.0.113.9");
  });

  it("takes the right-most untrusted hop from a trusted peer", () => {
    expect(resolveClientIp("127.0.0.1", "198.51.100.1", proxies)).toBe("198.51.100.1");
    // The client wrote "6.6.6.6" itself; our proxies appended the rest.
    expect(resolveClientIp("127.0.0.1", "6.6.6.6, 198.51.100.1, 10.1.2.3", proxies)).toBe("198.51.100.1");
    expect(resolveClientIp("10.9.9.9", "2001:db8::7, fd00::1", proxies)).toBe("2001:db8::7");
  });

  it("takes the left-most hop when every hop is trusted", () => {
    expect(resolveClientIp("127.0.0.1", "10.0.0.5, 10.0.0.6", proxies)).toBe("10.0.0.5");
  });

  it("stops at a hop that is not an address, keeping the last trusted one", () => {
    expect(resolveClientIp("127.0.0.1", "198.51.100.1, not-an-ip", proxies)).toBe("127.0.0.1");
    expect(resolveClientIp("127.0.0.1", "unknown, 10.0.0.7", proxies)).toBe("10.0.0.7");
    expect(resolveClientIp("127.0.0.1", "198.51.100.1:4431", proxies)).toBe("127.0.0.1");
    expect(resolveClientIp("127.0.0.1", "", proxies)).toBe("127.0.0.1");
  });

  it("treats an IPv4-mapped peer or hop as its IPv4 address", () => {
    expect(resolveClientIp("::ffff:127.0.0.1", "::ffff:198.51.100.1", proxies)).toBe("198.51.100.1");
    expect(resolveClientIp("::ffff:203.0.113.9", "198.51.100.1", proxies)).toBe("203.0.113.9");
  });

  it("reads only the right end of a padded header", () => {
    const padding = Array.from({ length: 5000 }, (_, i) => `6.6.${i % 256}.${i % 200}`).join(", ");
    expect(resolveClientIp("127.0.0.1", `${padding}, 198.51.100.1`, proxies)).toBe("198.51.100.1");
    // Hundreds of trusted hops: the walk gives up after a bounded number and keys on the last it read.
    const trustedHops = Array.from({ length: 300 }, (_, i) => `10.0.${i % 256}.1`).join(",");
    const client = resolveClientIp("127.0.0.1", `198.51.100.1,${trustedHops}`, proxies);
    expect(client).toMatch(/^10\.0\.\d+\.1$/);
  });
});

describe("clientIpResolver", () => {
  it("never reads the header without trusted proxies", () => {
    const ip = clientIpResolver([]);
    expect(ip(request("127.0.0.1", "198.51.100.1"))).toBe("127.0.0.1");
    expect(ip(request("::ffff:127.0.0.1"))).toBe("127.0.0.1");
  });

  it("joins repeated X-Forwarded-For headers in order", () => {
    const ip = clientIpResolver(["127.0.0.1"]);
    expect(ip(request("127.0.0.1", ["6.6.6.6", "198.51.100.1"]))).toBe("198.51.100.1");
    expect(ip(request("203.0.113.9", "198.51.100.1"))).toBe("203.0.113.9");
  });
});
