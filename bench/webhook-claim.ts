// The webhook claim's cost with a large due backlog (npx tsx bench/webhook-claim.ts [pods] [rows]):
// `pods` pods with 20 endpoints each and `rows` due deliveries spread over them, then claims of 128
// (server/webhooks/claim-deliveries.ts) as the job runner makes them. SQLite always, PostgreSQL too
// when TEST_DATABASE_URL is set. Prints the median and the slowest claim.
import { randomUUID } from "node:crypto";
import { openStore } from "../server/db/open-store";
import { Prisma } from "../server/db/generated/sqlite/client";
import { createTestDatabase, testProviders } from "../server/testing/test-databases";
import { claimDeliveries } from "../server/webhooks/claim-deliveries";

const PODS = Number(process.argv[2] ?? 100);
const ROWS = Number(process.argv[3] ?? 100_000);
const CLAIMS = 20;

for (const provider of testProviders()) {
  const db = await createTestDatabase(provider);
  const store = await openStore(db.url);
  try {
    const now = new Date().toISOString();
    const endpoints = Array.from({ length: PODS * 20 }, (_, i) => ({
      id: randomUUID(),
      podId: `pod-${i % PODS}`,
    }));
    await store.prisma.webhookEndpoint.createMany({
      data: endpoints.map((e) => ({
        ...e,
        url: "http://127.0.0.1:9/x",
        format: "standard",
        events: "[]",
        secret: "s",
        createdAt: now,
        createdBy: "bench",
      })),
    });
    for (let i = 0; i < ROWS; i += 500) {
      const values = Array.from({ length: Math.min(500, ROWS - i) }, (_, j) => {
        const e = endpoints[(i + j) % endpoints.length]!;
        const at = new Date(Date.now() - 3_600_000 + i + j).toISOString();
        const message = `m${i + j}`;
        const row = [randomUUID(), e.id, e.podId, message, "checkpoint", "{}", "pending", at, now];
        return Prisma.sql`(${Prisma.join(row)})`;
      });
      const columns = Prisma.raw(
        "id, endpoint_id, pod_id, message_id, type, payload, status, next_attempt_at, created_at",
      );
      await store.prisma.$executeRaw`INSERT INTO webhook_delivery (${columns}) VALUES ${Prisma.join(values)}`;
    }
    if (provider === "postgres") await store.prisma.$executeRawUnsafe("ANALYZE webhook_delivery");
    const took: number[] = [];
    let claimed = 0;
    for (let i = 0; i < CLAIMS; i++) {
      const t = performance.now();
      claimed += (await claimDeliveries(store, 128, [], 60_000)).length;
      took.push(performance.now() - t);
    }
    took.sort((a, b) => a - b);
    console.log(
      `${provider}: ${PODS} pods, ${PODS * 20} endpoints, ${ROWS} due rows: a claim of 128 takes ` +
        `${took[CLAIMS >> 1]!.toFixed(1)} ms (median; slowest ${took[CLAIMS - 1]!.toFixed(1)} ms), ${claimed} claimed`,
    );
  } finally {
    await store.close();
    await db.drop();
  }
}
