// The one place the environment is read. Everything else receives a Config.
import { z } from "zod";

const ZEnv = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default("127.0.0.1"),
  DATABASE_URL: z
    .string()
    .regex(/^(file:|postgres(ql)?:\/\/)/, "must start with file: or postgres://")
    .default("file:./data/podwatch.db"),
  PODWATCH_DEMO: z.enum(["0", "1"]).default("1"),
  PODWATCH_WEB: z.enum(["0", "1"]).default("1"),
  PODWATCH_SQLITE_SYNC: z.enum(["full", "normal"]).default("full"),
  PODWATCH_DEMO_INTERVAL_MS: z.coerce.number().int().min(50).default(2500),
  NODE_ENV: z.enum(["development", "production", "test"]).default("production"),
});

export type Config = {
  port: number;
  host: string;
  databaseUrl: string;
  demo: boolean;
  /** 0 serves only the agent API, sockets and health checks (no web UI, no build). */
  web: boolean;
  demoIntervalMs: number;
  dev: boolean;
  /** SQLite fsync policy: full = fsync every commit (survives power loss); normal = survives process crashes only. */
  sqliteSync: "full" | "normal";
};

export function readConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = ZEnv.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const e = parsed.data;
  return {
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    demo: e.PODWATCH_DEMO === "1",
    web: e.PODWATCH_WEB === "1",
    demoIntervalMs: e.PODWATCH_DEMO_INTERVAL_MS,
    dev: e.NODE_ENV === "development",
    sqliteSync: e.PODWATCH_SQLITE_SYNC,
  };
}
