// npm run db:migration -- <name>        (or --check: exit 1 if the models and migrations differ)
// Creates prisma/<provider>/migrations/<timestamp>_<name>/migration.sql for both
// providers: the SQL that takes a database from the committed migrations to
// prisma/models.prisma, computed by Prisma's own schema engine (its wasm build,
// driven through a driver adapter — the CLI's native engine cannot be
// downloaded everywhere). The engine replays the committed migrations on a
// shadow database: an in-memory SQLite, and for PostgreSQL the database named
// by SHADOW_DATABASE_URL (its contents are wiped).
import { mkdirSync, readFileSync, writeFileSync, existsSync } from "node:fs";
import { listMigrations, type Provider } from "../server/db/migrations";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { execFileSync } from "node:child_process";
import { inspect } from "node:util";
import { bindMigrationAwareSqlAdapterFactory } from "@prisma/driver-adapter-utils";
import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import * as bg from "@prisma/schema-engine-wasm/schema_engine_bg";

const root = join(import.meta.dirname, "..");
const check = process.argv.includes("--check");
const name = check
  ? "check"
  : (process.argv[2] ?? "")
      .trim()
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "_")
      .replace(/^_|_$/g, "");
if (!name) {
  console.error("usage: npm run db:migration -- <name>");
  process.exit(2);
}

async function loadEngine() {
  const dir = dirname(fileURLToPath(import.meta.resolve("@prisma/schema-engine-wasm")));
  const { instance } = await WebAssembly.instantiate(readFileSync(join(dir, "schema_engine_bg.wasm")), {
    "./schema_engine_bg.js": bg,
  });
  bg.__wbg_set_wasm(instance.exports);
  (instance.exports.__wbindgen_start as () => void)();
  return bg.SchemaEngine;
}

/** The committed migrations (the migrator's own list), as the schema engine takes them. */
function migrationList(provider: Provider) {
  const baseDir = join(root, "prisma", provider, "migrations");
  const lock = join(baseDir, "migration_lock.toml");
  return {
    baseDir,
    lockfile: { path: "migration_lock.toml", content: existsSync(lock) ? readFileSync(lock, "utf8") : null },
    shadowDbInitScript: "",
    migrationDirectories: listMigrations(provider).map((m) => ({
      path: m.name,
      migrationFile: { path: "migration.sql", content: { tag: "ok" as const, value: m.sql } },
    })),
  };
}

function adapterFactory(provider: string) {
  if (provider === "sqlite") {
    const f = new PrismaBetterSqlite3({ url: "file::memory:" });
    // The engine hands a migration's trigger (BEGIN … ; END) to executeRaw in one
    // piece, which better-sqlite3's prepare refuses: run such text as a script.
    const connect = async () => {
      const a = await f.connect();
      const executeRaw = a.executeRaw.bind(a);
      a.executeRaw = async (q) => {
        try {
          return await executeRaw(q);
        } catch (e) {
          if (!(e instanceof RangeError) || q.args.length) throw e;
          await a.executeScript(q.sql);
          return 0;
        }
      };
      return a;
    };
    return { provider: f.provider, adapterName: f.adapterName, connect, connectToShadowDb: connect };
  }
  const url = process.env.SHADOW_DATABASE_URL;
  if (!url)
    throw new Error(
      "set SHADOW_DATABASE_URL to a scratch PostgreSQL database (it will be wiped) to create the PostgreSQL migration",
    );
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  const f = new PrismaPg(pool);
  // The adapter's executeScript splits on ";", which breaks $$-quoted function bodies: send the script whole.
  const connect = async () => {
    await pool.query("DROP SCHEMA IF EXISTS public CASCADE; CREATE SCHEMA public");
    const a = await f.connect();
    a.executeScript = async (script: string) => void (await pool.query(script));
    // pg_catalog's internal "char" type (OID 18) has no mapping in the adapter: read it as text (OID 25).
    const io = a as unknown as { performIO: (q: unknown) => Promise<{ fields: { dataTypeID: number }[] }> };
    const performIO = io.performIO.bind(a);
    io.performIO = async (q) => {
      const r = await performIO(q);
      for (const f of r.fields) if (f.dataTypeID === 18) f.dataTypeID = 25;
      return r;
    };
    return a;
  };
  return { provider: f.provider, adapterName: f.adapterName, connect, connectToShadowDb: connect };
}

async function main() {
  execFileSync(
    process.execPath,
    ["--import", "tsx", join(root, "scripts/prisma-schemas.ts"), "--no-generate"],
    { stdio: "inherit" },
  );
  const SchemaEngine = await loadEngine();
  const stamp = new Date().toISOString().replace(/\D/g, "").slice(0, 14);
  let drift = false;
  for (const provider of ["sqlite", "postgres"] as const) {
    if (check && provider === "postgres" && !process.env.SHADOW_DATABASE_URL) {
      console.log("postgres: skipped (no SHADOW_DATABASE_URL)");
      continue;
    }
    const schemaPath = join(root, "prisma", provider, "schema.prisma");
    const content = readFileSync(schemaPath, "utf8");
    const bound = bindMigrationAwareSqlAdapterFactory(adapterFactory(provider) as never);
    const engine = await SchemaEngine.new({ datamodels: [[schemaPath, content]] }, () => {}, bound);
    const result = await engine
      .diff({
        from: { tag: "migrations", ...migrationList(provider) },
        to: { tag: "schemaDatamodel", files: [{ path: schemaPath, content }] },
        script: true,
        exitCode: null,
        filters: { externalTables: [], externalEnums: [] },
      })
      .catch((e) => {
        // The engine reports adapter failures by id; name the underlying error.
        const id = /External error id#(\d+)/.exec(String(e?.message ?? e))?.[1];
        const cause =
          id === undefined
            ? undefined
            : (bound as { errorRegistry: { consumeError(id: number): unknown } }).errorRegistry.consumeError(
                Number(id),
              );
        throw new Error(
          `${provider}: ${e?.message ?? e}${cause ? `\ncaused by: ${inspect(cause, { depth: 4 })}` : ""}`,
        );
      });
    const sql = (result.stdout ?? "").trim();
    if (!sql || /^-- This is an empty migration/.test(sql)) {
      console.log(`${provider}: models match the migrations; nothing to create`);
      continue;
    }
    if (check) {
      drift = true;
      console.log(
        `${provider}: prisma/models.prisma differs from the migrations; run npm run db:migration -- <name>:\n${sql}`,
      );
      continue;
    }
    const dir = join(root, "prisma", provider, "migrations", `${stamp}_${name}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "migration.sql"), `${sql}\n`);
    console.log(
      `${provider}: wrote ${dir}/migration.sql — review it (triggers and other SQL Prisma cannot express go here by hand)`,
    );
  }
  return drift;
}

main().then(
  (drift) => process.exit(drift ? 1 : 0),
  (e) => {
    console.error(e instanceof Error ? e.message : e);
    process.exit(1);
  },
);
