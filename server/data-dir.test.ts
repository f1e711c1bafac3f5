import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { dataDir } from "./data-dir";

describe("dataDir", () => {
  it("is the SQLite file's folder, so the secret, the VAPID keys and the blobs travel with the database", () => {
    expect(dataDir("file:/srv/podwatch/podwatch.db")).toBe("/srv/podwatch");
  });

  it("is ./data of the working directory for PostgreSQL", () => {
    expect(dataDir("postgres://podwatch@db:5432/podwatch")).toBe(join(process.cwd(), "data"));
  });
});
