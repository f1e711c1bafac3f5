import { describe, expect, it } from "vitest";
import { readConfig } from "./config";

describe("readConfig", () => {
  it("has working defaults: embedded SQLite, port 3000, demo on", () => {
    expect(readConfig({})).toMatchObject({ port: 3000, host: "127.0.0.1", databaseUrl: "file:./data/podwatch.db", demo: true, web: true });
  });
  it("reads overrides", () => {
    expect(readConfig({ PORT: "8080", PODWATCH_DEMO: "0", DATABASE_URL: "postgres://u@h/db" })).toMatchObject({ port: 8080, demo: false, databaseUrl: "postgres://u@h/db" });
  });
  it("names each bad variable", () => {
    expect(() => readConfig({ PORT: "http", DATABASE_URL: "mysql://x" })).toThrow(/PORT[\s\S]*DATABASE_URL|DATABASE_URL[\s\S]*PORT/);
  });
});
