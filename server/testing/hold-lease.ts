// A process that only tries for a leader lease, for the lease's tests: a test can freeze it
// (SIGSTOP) like a VM that stopped answering, which a lease in the test's own process cannot show.
// Says "leading" when its work starts and "stopped" when that work is stopped.
import { LeaderLease } from "../cluster/leader-lease";

const lease = new LeaderLease({
  databaseUrl: process.env.LEASE_DATABASE_URL!,
  lockKey: Number(process.env.LEASE_KEY),
  role: "test",
  nodeId: process.env.LEASE_NODE_ID ?? "holder",
  retryMs: Number(process.env.LEASE_RETRY_MS),
  lead: () => {
    console.log("leading");
    return () => console.log("stopped");
  },
});
lease.start();
// The lease's timers do not hold a process open; this one must live until it is told to go.
const alive = setInterval(() => {}, 60_000);
process.once("SIGTERM", () => void lease.stop().finally(() => clearInterval(alive)));
