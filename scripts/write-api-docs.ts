// Writes docs/api.md and the browser's route map from the operation tables (server/operations/api-reference.ts).
import { mkdirSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { apiReference, browserRoutes } from "../server/operations/api-reference";

const at = (path: string) => fileURLToPath(new URL(`../${path}`, import.meta.url));
mkdirSync(at("docs"), { recursive: true });
writeFileSync(at("docs/api.md"), apiReference());
writeFileSync(at("components/shared/api-routes.ts"), browserRoutes());
console.log("wrote docs/api.md and components/shared/api-routes.ts");
