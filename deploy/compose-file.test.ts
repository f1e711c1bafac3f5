// The deployment files, checked in `npm test`: compose.yaml by `docker compose config` where the
// compose plugin exists, else by our schema of the subset it uses; and the facts that hold the
// files together (every node starts with a valid configuration, Caddy's upstreams are the nodes,
// health is /readyz, the image runs npm start), which neither docker nor a schema can see.
import { execFileSync, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readConfig } from "../server/config";
import { readCompose } from "./read-compose";
import { MissingVariableError } from "./interpolate";
import type { ComposeService } from "./compose-schema";

const ROOT = join(import.meta.dirname, "..");
const COMPOSE = join(ROOT, "compose.yaml");
const read = (file: string) => readFileSync(join(ROOT, file), "utf8");
/** What the README tells the operator to put in .env. */
const DOT_ENV = {
  POSTGRES_PASSWORD: "a".repeat(48),
  PODWATCH_AUTH_SECRET: "b".repeat(64),
  PODWATCH_ADMIN_TOKEN: "c".repeat(48),
};

const hasDockerCompose = spawnSync("docker", ["compose", "version"], { stdio: "ignore" }).status === 0;
/** Only the variables given: neither this shell's environment nor an operator's .env beside the file. */
const dockerConfig = (env: Record<string, string>) =>
  spawnSync("docker", ["compose", "--env-file", "/dev/null", "-f", COMPOSE, "config", "-q"], {
    cwd: ROOT,
    encoding: "utf8",
    env: { NODE_ENV: "test", PATH: process.env.PATH, HOME: process.env.HOME, ...env },
  });

const compose = readCompose(COMPOSE, DOT_ENV);
const services = compose.services;
const nodes = Object.entries(services).filter(([, s]) => s.build !== undefined);
const env = (s: ComposeService) =>
  Object.fromEntries(
    Object.entries(s.environment ?? {}).map(([k, v]) => [k, v === null ? undefined : String(v)]),
  );

describe("compose.yaml", () => {
  it("is a valid compose file: docker compose config where the plugin exists, else our schema", () => {
    if (hasDockerCompose) {
      const r = dockerConfig(DOT_ENV);
      expect(r.stderr).toBe("");
      expect(r.status).toBe(0);
    }
    // Our schema parsed it above (readCompose throws on any unknown key or bad value); and the
    // names it refers to exist: services in depends_on, named volumes, networks.
    for (const [name, s] of Object.entries(services)) {
      for (const dep of Object.keys(s.depends_on ?? {}))
        expect(Object.keys(services), `${name} depends on ${dep}`).toContain(dep);
      for (const v of s.volumes ?? []) {
        const source = v.split(":")[0]!;
        if (!/^[./~]/.test(source))
          expect(Object.keys(compose.volumes ?? {}), `${name}'s volume ${source}`).toContain(source);
      }
      const nets = Array.isArray(s.networks) ? s.networks : Object.keys(s.networks ?? {});
      for (const n of nets)
        expect(Object.keys(compose.networks ?? {}), `${name}'s network ${n}`).toContain(n);
    }
  });

  it("refuses to start without the operator's secrets in .env", () => {
    for (const missing of Object.keys(DOT_ENV)) {
      const partial: Record<string, string> = { ...DOT_ENV };
      delete partial[missing];
      if (hasDockerCompose) {
        const r = dockerConfig(partial);
        expect(r.status).not.toBe(0);
        expect(r.stderr).toContain(missing);
      }
      expect(() => readCompose(COMPOSE, partial)).toThrow(MissingVariableError);
      expect(() => readCompose(COMPOSE, { ...partial, [missing]: "" })).toThrow(
        new RegExp(`^${missing}: set ${missing} in .env`),
      );
    }
  });

  it("runs two podwatch nodes whose environment is a valid configuration, after a healthy PostgreSQL", () => {
    expect(nodes.map(([n]) => n)).toEqual(["podwatch-1", "podwatch-2"]);
    const pg = services.postgres!;
    expect(pg.image).toMatch(/^postgres:\d+/);
    expect(pg.healthcheck?.test).toEqual(expect.arrayContaining(["pg_isready"]));
    const pgEnv = env(pg);
    const ids = new Set<string>();
    for (const [name, node] of nodes) {
      const config = readConfig(env(node)); // throws on anything podwatch would refuse at start
      expect(node.depends_on?.postgres?.condition, name).toBe("service_healthy");
      expect(config.host).toBe("0.0.0.0");
      const db = new URL(config.databaseUrl);
      expect([db.hostname, db.username, decodeURIComponent(db.password), db.pathname.slice(1)]).toEqual([
        "postgres",
        pgEnv.POSTGRES_USER,
        DOT_ENV.POSTGRES_PASSWORD,
        pgEnv.POSTGRES_DB,
      ]);
      expect(config.authSecret).toBe(DOT_ENV.PODWATCH_AUTH_SECRET);
      expect(config.adminToken).toBe(DOT_ENV.PODWATCH_ADMIN_TOKEN);
      ids.add(config.nodeId);
      // The health check asks /readyz on the node's own port with node's fetch (no curl in slim images).
      const test = node.healthcheck?.test;
      expect(test?.slice(0, 3)).toEqual(["CMD", "node", "-e"]);
      expect(test?.[3]).toContain(`http://127.0.0.1:${config.port}/readyz`);
    }
    expect(ids.size).toBe(nodes.length);
    // The demo pod is played by one node only.
    expect(nodes.filter(([, n]) => readConfig(env(n)).demo).length).toBe(1);
  });

  it("lets the nodes believe X-Forwarded-For from Caddy alone, at its fixed address in the network", () => {
    const caddyNets = services.caddy!.networks as Record<string, { ipv4_address?: string } | null>;
    const [[netName, caddyNet]] = Object.entries(caddyNets) as [[string, { ipv4_address?: string } | null]];
    const address = caddyNet?.ipv4_address;
    expect(address).toBeDefined();
    const subnet = compose.networks?.[netName]?.ipam?.config[0]?.subnet ?? "";
    const [base, bits] = subnet.split("/");
    const toInt = (ip: string) => ip.split(".").reduce((n, o) => n * 256 + Number(o), 0);
    const mask = Number(bits) === 0 ? 0 : (~0 << (32 - Number(bits))) >>> 0;
    expect((toInt(address!) & mask) >>> 0).toBe((toInt(base!) & mask) >>> 0);
    for (const [, node] of nodes) expect(readConfig(env(node)).trustedProxies).toEqual([address]);
  });
});

describe("deploy/Caddyfile", () => {
  const caddyfile = read("deploy/Caddyfile");
  const directive = (name: string) =>
    new RegExp(`^\\s*${name}\\s+(.+)$`, "m").exec(caddyfile)?.[1]?.trim().split(/\s+/) ?? [];

  it("proxies to every node on its port, sticky by cookie, with active health checks on /readyz", () => {
    const upstreams = directive("reverse_proxy").filter((w) => w !== "{");
    expect(upstreams.sort()).toEqual(nodes.map(([name, n]) => `${name}:${readConfig(env(n)).port}`).sort());
    expect(directive("health_uri")).toEqual(["/readyz"]);
    expect(directive("lb_policy")[0]).toBe("cookie");
    // compose mounts this very file where Caddy's image reads it.
    expect(services.caddy!.volumes).toContain("./deploy/Caddyfile:/etc/caddy/Caddyfile:ro");
    expect(services.caddy!.ports?.some((p) => p.endsWith(":80"))).toBe(true);
  });

  it("is a Caddyfile Caddy accepts, where caddy is installed", () => {
    let caddy = true;
    try {
      execFileSync("caddy", ["version"], { stdio: "ignore" });
    } catch {
      caddy = false;
    }
    if (!caddy) return expect(caddyfile).toMatch(/^\{\$PODWATCH_SITE::80\} \{$/m);
    const json = JSON.parse(
      execFileSync("caddy", ["adapt", "--config", join(ROOT, "deploy/Caddyfile"), "--adapter", "caddyfile"], {
        encoding: "utf8",
        stdio: ["ignore", "pipe", "pipe"],
      }),
    ) as {
      apps: {
        http: {
          servers: Record<
            string,
            {
              listen: string[];
              routes: {
                handle: { upstreams: { dial: string }[]; health_checks: { active: { uri: string } } }[];
              }[];
            }
          >;
        };
      };
    };
    const server = Object.values(json.apps.http.servers)[0]!;
    expect(server.listen).toEqual([":80"]);
    const proxy = server.routes[0]!.handle[0]!;
    expect(proxy.upstreams.map((u) => u.dial).sort()).toEqual(nodes.map(([name]) => `${name}:3000`).sort());
    expect(proxy.health_checks.active.uri).toBe("/readyz");
  });
});

describe("Dockerfile and .dockerignore", () => {
  const lines = read("Dockerfile")
    .split("\n")
    .filter((l) => /^[A-Z]+\s/.test(l));
  const stages = lines.filter((l) => l.startsWith("FROM "));

  it("builds on Node 20 Debian slim with npm ci and npm run build, and runs npm start", () => {
    for (const from of stages) expect(from).toMatch(/^FROM node:20-[a-z]+-slim\b/);
    const run = read("Dockerfile");
    expect(run).toMatch(/^RUN npm ci\b/m);
    expect(run).toMatch(/^RUN npm run build\b/m);
    const lastStage = lines.slice(lines.lastIndexOf(stages.at(-1)!));
    expect(lastStage.filter((l) => l.startsWith("CMD ")).at(-1)).toBe('CMD ["npm", "start"]');
  });

  it("keeps the operator's .env and local state out of the image", () => {
    const ignored = read(".dockerignore")
      .split("\n")
      .map((l) => l.trim());
    for (const path of [".env", ".env.*", "node_modules", ".next", "data", ".git"])
      expect(ignored).toContain(path);
  });
});
