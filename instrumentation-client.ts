// Runs in the browser before any of the app's modules. Zod 4 probes for eval (`new Function("")`)
// whenever it builds an object schema; our CSP has no 'unsafe-eval', so every page would report a
// violation for that probe. Jitless Zod skips the probe and its compiled parsers; results are the same.
import { config } from "zod";

config({ jitless: true });
