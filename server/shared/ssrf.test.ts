import { describe, expect, it } from "vitest";
import { checkWebhookUrl, isForbiddenAddress } from "./ssrf";

describe("webhook targets", () => {
  it.each([
    "127.0.0.1",
    "127.255.0.9",
    "10.1.2.3",
    "172.16.0.1",
    "172.31.255.255",
    "192.168.1.1",
    "169.254.169.254",
    "100.64.0.1",
    "0.0.0.0",
    "224.0.0.1",
    "255.255.255.255",
    "198.18.0.1",
    "::1",
    "::",
    "fe80::1",
    "fd00::1",
    "fc00::5",
    "ff02::1",
    "::ffff:127.0.0.1",
    "::ffff:7f00:1",
    "::ffff:169.254.169.254",
    "::ffff:a9fe:a9fe",
    "::127.0.0.1",
    "64:ff9b::7f00:1",
    "not an address",
    // IPv4-translated (::ffff:0:0/96), IETF protocol assignments (2001::/23, with Teredo 2001::/32), SRv6 SIDs (5f00::/16)
    "::ffff:0:7f00:1",
    "::ffff:0:127.0.0.1",
    "::ffff:0:808:808",
    "2001::1",
    "2001:0:4136:e378:8000:63bf:3fff:fdd2",
    "2001:1ff:ffff::1",
    "5f00::1",
    "5f00:ffff::1",
  ])("refuses %s", (ip) => expect(isForbiddenAddress(ip)).toBe(true));

  it.each([
    "8.8.8.8",
    "1.1.1.1",
    "93.184.215.14",
    "172.32.0.1",
    "100.128.0.1",
    "2606:4700::1111",
    "::ffff:8.8.8.8",
    "2001:200::1",
    "2001:4860:4860::8888",
    "5eff::1",
    "5f01::1",
  ])("allows %s", (ip) => expect(isForbiddenAddress(ip)).toBe(false));

  it("checks scheme, credentials and literal hosts when saved", async () => {
    await expect(checkWebhookUrl("ftp://1.1.1.1/", false)).rejects.toThrow(/only http/);
    await expect(checkWebhookUrl("https://u:p@1.1.1.1/", false)).rejects.toThrow(/no user name/);
    await expect(checkWebhookUrl("http://[::ffff:10.0.0.1]/", false)).rejects.toThrow(/internal address/);
    await expect(checkWebhookUrl("not a url", false)).rejects.toThrow(/not a URL/);
    expect(await checkWebhookUrl("https://1.1.1.1/hook", false)).toBe("https://1.1.1.1/hook");
    expect(await checkWebhookUrl("http://127.0.0.1:9/x", true)).toBe("http://127.0.0.1:9/x");
  });
});
