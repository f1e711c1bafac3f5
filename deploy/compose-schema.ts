// The subset of the Compose file format that compose.yaml uses, checked with zod where
// `docker compose config` cannot run. Written for this file, not copied from the spec: an
// unknown key is an error (a typo must not pass), so a new key means a line here too.
import { z } from "zod";

const Duration = z.string().regex(/^(\d+(\.\d+)?(us|ms|s|m|h))+$/, "a duration such as 10s or 1m30s");
const Scalar = z.union([z.string(), z.number(), z.boolean(), z.null()]);
/** host:container, optionally with an address and a protocol: 8080:80, 127.0.0.1:8080:80/tcp. */
const PortMapping = z
  .string()
  .regex(/^((\d{1,3}\.){3}\d{1,3}:)?\d{1,5}:\d{1,5}(\/(tcp|udp))?$/, "host:container");
/** A named volume or a bind mount, then the path in the container, then an optional mode. */
const VolumeMount = z.string().regex(/^[^:]+:\/[^:]*(:(ro|rw))?$/, "source:/container/path[:ro|rw]");

const Healthcheck = z
  .object({
    test: z.union([
      z.string().min(1),
      z.tuple([z.enum(["CMD", "CMD-SHELL"])], z.string()).refine((t) => t.length > 1, "a command after CMD"),
    ]),
    interval: Duration.optional(),
    timeout: Duration.optional(),
    retries: z.number().int().positive().optional(),
    start_period: Duration.optional(),
  })
  .strict();

const DependsOn = z.record(
  z.string(),
  z
    .object({ condition: z.enum(["service_started", "service_healthy", "service_completed_successfully"]) })
    .strict(),
);

const ServiceNetworks = z.union([
  z.array(z.string()),
  z.record(
    z.string(),
    z
      .object({ ipv4_address: z.ipv4().optional(), aliases: z.array(z.string()).optional() })
      .strict()
      .nullable(),
  ),
]);

export const ZService = z
  .object({
    image: z.string().min(1).optional(),
    build: z
      .union([
        z.string().min(1),
        z.object({ context: z.string().min(1), dockerfile: z.string().optional() }).strict(),
      ])
      .optional(),
    restart: z.enum(["no", "always", "on-failure", "unless-stopped"]).optional(),
    init: z.boolean().optional(),
    environment: z.record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/), Scalar).optional(),
    healthcheck: Healthcheck.optional(),
    depends_on: DependsOn.optional(),
    ports: z.array(PortMapping).optional(),
    volumes: z.array(VolumeMount).optional(),
    networks: ServiceNetworks.optional(),
    stop_grace_period: Duration.optional(),
  })
  .strict()
  .refine((s) => s.image !== undefined || s.build !== undefined, "a service needs an image or a build");

const Network = z
  .object({
    ipam: z
      .object({ config: z.array(z.object({ subnet: z.cidrv4() }).strict()).min(1) })
      .strict()
      .optional(),
  })
  .strict()
  .nullable();

export const ZCompose = z
  .object({
    name: z
      .string()
      .regex(/^[a-z0-9][a-z0-9_-]*$/)
      .optional(),
    services: z.record(z.string().regex(/^[a-zA-Z0-9][a-zA-Z0-9_.-]*$/), ZService),
    networks: z.record(z.string(), Network).optional(),
    volumes: z.record(z.string(), z.object({}).strict().nullable()).optional(),
  })
  .strict();

export type ComposeFile = z.infer<typeof ZCompose>;
export type ComposeService = z.infer<typeof ZService>;
