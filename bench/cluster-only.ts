// `npx tsx bench/cluster-only.ts`: only the cluster figures of `npm run bench` (a minute, not the whole bench).
import { benchCluster } from "./cluster";
import { agent } from "./http";

const rows = await benchCluster().finally(() => agent.destroy());
const width = Math.max(...rows.map(([k]) => k.length));
console.log("\npodwatch cluster benchmark (nodes, PostgreSQL and load generator on this machine)\n");
for (const [k, v] of rows) console.log(`  ${k.padEnd(width)}  ${v}`);
console.log("");
