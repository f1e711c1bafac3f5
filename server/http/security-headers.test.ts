import { IncomingMessage, ServerResponse } from "node:http";
import { Socket } from "node:net";
import { describe, expect, it } from "vitest";
// Next's own parser: the nonce we put in the request header must be the one Next stamps on its scripts.
import { getScriptNonceFromHeader } from "next/dist/server/app-render/get-script-nonce-from-header";
import { applyPageNonce, contentSecurityPolicy, securityHeaders } from "./security-headers";

const directive = (csp: string, name: string) =>
  csp
    .split(";")
    .map((d) => d.trim())
    .find((d) => d.startsWith(`${name} `)) ?? "";

function exchange(headers: Record<string, string> = {}) {
  const req = new IncomingMessage(new Socket());
  req.headers = { ...headers };
  return { req, res: new ServerResponse(req) };
}

describe("content security policy", () => {
  it("allows only scripts carrying this response's nonce on pages: no 'unsafe-inline', no 'unsafe-eval'", () => {
    const csp = contentSecurityPolicy({ nonce: "abc123+/=" });
    expect(directive(csp, "script-src")).toBe("script-src 'self' 'nonce-abc123+/=' 'strict-dynamic'");
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(directive(csp, "connect-src")).toBe("connect-src 'self'"); // no ws:/wss: to any host
    expect(getScriptNonceFromHeader(csp)).toBe("abc123+/=");
  });

  it("allows no inline script at all where there is no nonce (API and JSON responses)", () => {
    const csp = contentSecurityPolicy();
    expect(directive(csp, "script-src")).toBe("script-src 'self'");
    // Inline styles stay allowed (React's style attributes); inline scripts never.
    expect(
      csp
        .split(";")
        .filter((d) => d.includes("'unsafe-inline'"))
        .map((d) => d.trim().split(" ")[0]),
    ).toEqual(["style-src"]);
    expect(getScriptNonceFromHeader(csp)).toBeUndefined();
  });

  it("adds 'unsafe-eval' only in development, where React's debugging needs eval", () => {
    expect(directive(contentSecurityPolicy({ nonce: "n", dev: true }), "script-src")).toBe(
      "script-src 'self' 'nonce-n' 'strict-dynamic' 'unsafe-eval'",
    );
    expect(contentSecurityPolicy({ nonce: "n" })).not.toContain("unsafe-eval");
  });

  it("securityHeaders sends the nonce-less policy and the other hardening headers", () => {
    const { res } = exchange();
    securityHeaders(res);
    expect(res.getHeader("content-security-policy")).toBe(contentSecurityPolicy());
    expect(res.getHeader("x-frame-options")).toBe("DENY");
    expect(res.getHeader("x-content-type-options")).toBe("nosniff");
  });

  it("applyPageNonce gives each page request a fresh random nonce, in the response and in the request Next reads", () => {
    const seen = new Set<string>();
    for (let i = 0; i < 50; i++) {
      // A client-sent CSP header must not choose the nonce.
      const { req, res } = exchange({ "content-security-policy": "script-src 'nonce-attacker'" });
      securityHeaders(res);
      applyPageNonce(req, res, { dev: false });
      const sent = String(res.getHeader("content-security-policy"));
      expect(req.headers["content-security-policy"]).toBe(sent);
      const nonce = getScriptNonceFromHeader(sent)!;
      expect(Buffer.from(nonce, "base64")).toHaveLength(16);
      expect(directive(sent, "script-src")).toBe(`script-src 'self' 'nonce-${nonce}' 'strict-dynamic'`);
      seen.add(nonce);
    }
    expect(seen.size).toBe(50);
  });
});
