// Headers for every response. The CSP allows only this origin, and no inline script
// without this response's nonce: an injected <script> or onerror= handler never runs.
import { randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";

/** The policy for one response. Pages pass their nonce; API and JSON answers run no script and pass none. */
export function contentSecurityPolicy({
  nonce,
  dev = false,
}: { nonce?: string; dev?: boolean } = {}): string {
  // 'strict-dynamic' lets the nonced bootstrap load Next's chunks; browsers that know it ignore 'self' then.
  const scripts = nonce ? ["'self'", `'nonce-${nonce}'`, "'strict-dynamic'"] : ["'self'"];
  if (dev) scripts.push("'unsafe-eval'"); // React's development build rebuilds call stacks with eval
  return [
    "default-src 'self'",
    `script-src ${scripts.join(" ")}`,
    // Styles stay 'unsafe-inline': React renders style="" attributes (the tape's virtual rows), which
    // a nonce cannot cover. Inline CSS cannot run script; the risk is in scripts.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    // 'self' covers this origin's ws:/wss: (CSP 3); bare ws: wss: would let a page talk to any host.
    "connect-src 'self'",
    // The service worker (public/sw.js) and the web app manifest: this origin only. Without worker-src,
    // registering the worker would fall back to script-src, whose 'strict-dynamic' ignores 'self'.
    "worker-src 'self'",
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** The nonce-less policy, made once: every response starts with it (pages replace it with their nonce's). */
const NO_SCRIPT_POLICY = contentSecurityPolicy();

export function securityHeaders(res: ServerResponse) {
  res.setHeader("content-security-policy", NO_SCRIPT_POLICY);
  res.setHeader("x-content-type-options", "nosniff");
  res.setHeader("referrer-policy", "same-origin");
  res.setHeader("x-frame-options", "DENY");
  res.setHeader("permissions-policy", "camera=(), microphone=(), geolocation=()");
  res.setHeader("cross-origin-opener-policy", "same-origin");
}

/**
 * For a request Next will answer: a fresh nonce in the response's policy, and the same policy on
 * the request, where Next reads the nonce (as it would from a proxy) and stamps it on its scripts.
 * Overwriting the request header also keeps a client from choosing the nonce.
 */
export function applyPageNonce(req: IncomingMessage, res: ServerResponse, { dev }: { dev: boolean }) {
  const csp = contentSecurityPolicy({ nonce: randomBytes(16).toString("base64"), dev });
  req.headers["content-security-policy"] = csp;
  res.setHeader("content-security-policy", csp);
}
