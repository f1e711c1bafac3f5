// The API answers compressed when the client accepts it (server/http/compress.ts), read here with
// node's own http client, so what is on the wire is what is checked; a long-poll still wakes.
import { randomUUID } from "node:crypto";
import { request } from "node:http";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, startTestServer, TEST_ADMIN_TOKEN, type TestServer } from "../testing/test-server";
import { testProviders } from "../testing/test-databases";
import { chooseEncoding } from "./compress";

type Raw = { status: number; headers: Record<string, string | string[] | undefined>; body: Buffer };

function get(base: string, path: string, acceptEncoding?: string): Promise<Raw> {
  const headers: Record<string, string> = { authorization: `Bearer ${TEST_ADMIN_TOKEN}` };
  if (acceptEncoding) headers["accept-encoding"] = acceptEncoding;
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () =>
        resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }),
      );
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

const note = (text: string) => ({
  id: randomUUID(),
  type: "note",
  actor: "impl",
  body: { kind: "STATUS", text },
});

describe("chooseEncoding", () => {
  it("prefers brotli, then gzip, and honours q=0", () => {
    expect(chooseEncoding("gzip, deflate, br")).toBe("br");
    expect(chooseEncoding("gzip;q=1, br;q=0")).toBe("gzip");
    expect(chooseEncoding("identity")).toBeNull();
    expect(chooseEncoding(undefined)).toBeNull();
    expect(chooseEncoding("*")).toBe("br");
  });
});

describe.each(testProviders())("compressed API answers on %s", (provider) => {
  let s: TestServer;
  let podId: string;
  beforeAll(async () => {
    s = await startTestServer(provider);
    podId = (await api(s.url, "POST", "/api/v1/pods", { name: "compressed", mode: "collaboration" })).body.id;
    const seeded = await api(s.url, "POST", `/api/v1/pods/${podId}/events`, {
      events: Array.from({ length: 200 }, (_, i) => note(`status ${i}: all is well`)),
    });
    expect(seeded.status).toBe(201);
  });
  afterAll(() => s.stop());

  it("answers gzip or brotli when accepted, the same JSON, and plain text otherwise", async () => {
    const path = `/api/v1/pods/${podId}/events?after=0&limit=200`;
    const plain = await get(s.url, path);
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(Number(plain.headers["content-length"])).toBe(plain.body.length);
    const json = JSON.parse(plain.body.toString("utf8"));
    expect(json.events).toHaveLength(200);

    const gz = await get(s.url, path, "gzip");
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(gz.headers.vary).toBe("accept-encoding");
    expect(Number(gz.headers["content-length"])).toBe(gz.body.length);
    expect(gz.body.length).toBeLessThan(plain.body.length / 4);
    expect(JSON.parse(gunzipSync(gz.body).toString("utf8"))).toEqual(json);

    const br = await get(s.url, path, "gzip, deflate, br");
    expect(br.headers["content-encoding"]).toBe("br");
    expect(JSON.parse(brotliDecompressSync(br.body).toString("utf8"))).toEqual(json);
  });

  it("leaves small answers as they are", async () => {
    const small = await get(s.url, "/healthz", "gzip, br");
    expect(small.status).toBe(200);
    expect(small.headers["content-encoding"]).toBeUndefined();
  });

  it("wakes a compressed long-poll with the events committed while it waits", async () => {
    const head = (await api(s.url, "GET", `/api/v1/pods/${podId}`)).body.eventCount as number;
    const waiting = get(s.url, `/api/v1/pods/${podId}/events?after=${head}&wait=10`, "gzip");
    await new Promise((r) => setTimeout(r, 200));
    const texts = Array.from(
      { length: 30 },
      (_, i) => `woke it ${i}, with enough words to be worth compressing`,
    );
    expect(
      (await api(s.url, "POST", `/api/v1/pods/${podId}/events`, { events: texts.map(note) })).status,
    ).toBe(201);
    const res = await waiting;
    expect(res.status).toBe(200);
    const body = res.headers["content-encoding"] === "gzip" ? gunzipSync(res.body) : res.body;
    const page = JSON.parse(body.toString("utf8")) as { events: { seq: number }[] };
    expect(page.events[0]!.seq).toBe(head + 1);
  });
});
