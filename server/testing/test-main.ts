// A test's server as a child process (spawn-server.ts, the e2e run's web server): what
// server/main.ts runs, plus the test knobs its environment names (test-knobs.ts), which the
// production entry never reads.
import { runServer } from "../run-server";
import { knobsFromEnv } from "./test-knobs";

void runServer({ knobs: knobsFromEnv(process.env).knobs });
