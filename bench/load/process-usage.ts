// A process's CPU time and resident memory, read from /proc (Linux; null elsewhere). The bench
// divides CPU by the requests a run served: CPU per request stays steady on a shared, noisy
// machine where requests per second do not.
import { readFileSync } from "node:fs";

/** User + system CPU seconds, all threads (utime and stime are in clock ticks; USER_HZ is 100). */
export function processCpuSeconds(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" "); // the name may hold spaces
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}

/** VmRSS in MiB. */
export function processRssMiB(pid: number): number | null {
  try {
    const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
    return kb ? Number(kb) / 1024 : null;
  } catch {
    return null;
  }
}
