import { describe, expect, it } from "vitest";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readConfig } from "./config";

describe("readConfig", () => {
  it("has working defaults: embedded SQLite, port 3000, demo on", () => {
    expect(readConfig({})).toMatchObject({
      port: 3000,
      host: "127.0.0.1",
      databaseUrl: "file:./data/podwatch.db",
      demo: true,
      web: true,
    });
  });
  it("reads overrides", () => {
    expect(readConfig({ PORT: "8080", PODWATCH_DEMO: "0", DATABASE_URL: "postgres://u@h/db" })).toMatchObject(
      { port: 8080, demo: false, databaseUrl: "postgres://u@h/db" },
    );
  });
  it("reads the operator's price file at start, and refuses to start on a bad one", () => {
    const dir = mkdtempSync(join(tmpdir(), "podwatch-prices-"));
    const good = join(dir, "prices.json");
    writeFileSync(
      good,
      JSON.stringify({ "gpt-5": { input: 1.25, output: 10, cacheWrite: 0, cacheRead: 0.125 } }),
    );
    expect(readConfig({}).modelPrices).toEqual([]);
    expect(readConfig({ PODWATCH_MODEL_PRICES: good }).modelPrices).toEqual([
      ["gpt-5", { input: 1.25, output: 10, cacheWrite: 0, cacheRead: 0.125 }],
    ]);
    const bad = join(dir, "bad.json");
    writeFileSync(bad, JSON.stringify({ "gpt-5": { input: "cheap" } }));
    expect(() => readConfig({ PODWATCH_MODEL_PRICES: bad })).toThrow(
      /Invalid configuration[\s\S]*gpt-5\.input/,
    );
    expect(() => readConfig({ PODWATCH_MODEL_PRICES: join(dir, "none.json") })).toThrow(
      /PODWATCH_MODEL_PRICES: cannot read .*none\.json \(ENOENT\)/,
    );
  });
  it("bounds a push's deadline to connect and answer: 5 s unless set, within its lease", () => {
    expect(readConfig({}).pushDeadlineMs).toBe(5_000);
    expect(readConfig({ PODWATCH_PUSH_DEADLINE_MS: "2000" }).pushDeadlineMs).toBe(2_000);
    expect(() => readConfig({ PODWATCH_PUSH_DEADLINE_MS: "60000" })).toThrow(/PODWATCH_PUSH_DEADLINE_MS/);
  });
  it("names each bad variable", () => {
    expect(() => readConfig({ PORT: "http", DATABASE_URL: "mysql://x" })).toThrow(
      /PORT[\s\S]*DATABASE_URL|DATABASE_URL[\s\S]*PORT/,
    );
  });
  it("reads the cluster settings: node id, shared blob folder, trusted proxies, pool size, drain", () => {
    const c = readConfig({
      PODWATCH_NODE_ID: "node-a",
      PODWATCH_BLOB_DIR: "/srv/blobs",
      PODWATCH_TRUSTED_PROXIES: " 10.0.0.0/8, ::1 ,127.0.0.1",
      PODWATCH_PG_POOL_MAX: "20",
      PODWATCH_DRAIN_MS: "5000",
    });
    expect(c).toMatchObject({
      nodeId: "node-a",
      blobDir: "/srv/blobs",
      trustedProxies: ["10.0.0.0/8", "::1", "127.0.0.1"],
      pgPoolMax: 20,
      drainMs: 5000,
    });
    expect(readConfig({})).toMatchObject({ blobDir: null, trustedProxies: [], pgPoolMax: 10 });
    expect(readConfig({}).nodeId).toMatch(new RegExp(`-${process.pid}$`));
  });
  it("refuses a trusted proxy that is not an address or a block, and a node id with spaces", () => {
    expect(() => readConfig({ PODWATCH_TRUSTED_PROXIES: "10.0.0.0/33" })).toThrow(/PODWATCH_TRUSTED_PROXIES/);
    expect(() => readConfig({ PODWATCH_TRUSTED_PROXIES: "caddy" })).toThrow(/PODWATCH_TRUSTED_PROXIES/);
    expect(() => readConfig({ PODWATCH_NODE_ID: "node a" })).toThrow(/PODWATCH_NODE_ID/);
  });
});
