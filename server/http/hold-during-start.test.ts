import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { holdDuringStart, MAX_HELD_DURING_START } from "./hold-during-start";
import { eventually } from "../testing/eventually";

type Answer = { status: number; body: string };

function send(port: number, method: string, path: string, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, method, path, agent: false }, (res) => {
      let text = "";
      res
        .setEncoding("utf8")
        .on("data", (c: string) => (text += c))
        .on("end", () => resolve({ status: res.statusCode!, body: text }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

describe("a server that is still starting", () => {
  let server: Server | null = null;
  afterEach(() => new Promise<void>((r) => (server ? server.close(() => r()) : r())));

  async function listen() {
    const starting = holdDuringStart();
    server = createServer(starting.handle);
    await new Promise<void>((r) => server!.listen(0, "127.0.0.1", r));
    return { port: (server.address() as AddressInfo).port, ready: starting.ready, waiting: starting.waiting };
  }

  it("holds a hook call until it is ready and then answers it, while other requests get 503", async () => {
    const { port, ready } = await listen();
    let hookAnswered = false;
    const hook = send(port, "POST", "/api/v1/hooks/claude-code", '{"hook_event_name":"PreToolUse"}').then(
      (a) => ((hookAnswered = true), a),
    );
    expect(await send(port, "GET", "/api/v1/pods")).toMatchObject({ status: 503 });
    expect(await send(port, "POST", "/api/v1/pods/x/events", "{}")).toMatchObject({ status: 503 });
    expect(hookAnswered).toBe(false);
    ready((req, res) => {
      let body = "";
      req
        .setEncoding("utf8")
        .on("data", (c: string) => (body += c))
        .on("end", () => res.writeHead(200).end(`decided ${body}`));
    });
    expect(await hook).toEqual({ status: 200, body: 'decided {"hook_event_name":"PreToolUse"}' });
    expect(await send(port, "GET", "/api/v1/pods")).toMatchObject({ status: 200 });
  });

  it("holds a bounded number: past the bound a hook call gets the 503 like the rest", async () => {
    const { port, ready, waiting } = await listen();
    const held = Array.from({ length: MAX_HELD_DURING_START }, () =>
      send(port, "POST", "/api/v1/hooks/claude-code", "{}"),
    );
    // The bound counts requests received: wait until the server holds them all.
    await eventually(
      async () => waiting(),
      (n) => n === MAX_HELD_DURING_START,
      "every hook call held",
    );
    expect(await send(port, "POST", "/api/v1/hooks/claude-code", "{}")).toMatchObject({ status: 503 });
    ready((_req, res) => void res.writeHead(200).end("ok"));
    expect((await Promise.all(held)).every((a) => a.status === 200)).toBe(true);
  });
});
