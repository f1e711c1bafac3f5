// Every route the API server mounts is declared in an operation table (so the OpenAPI document and
// the reference list it), and every declared path is served: the hand-written doors included.
import { describe, expect, it } from "vitest";
import { operations } from "../operations/operations";
import { routes } from "./api-routes";

/** A concrete path for a template: each `{name}` one segment. */
const sample = (template: string) => template.replace(/\{[^}]+\}/g, "x".repeat(64));
const declared = operations.filter((op) => op.http);

describe("the API server's routes and the operation tables", () => {
  it("every route is a declared operation's (but the document's own)", () => {
    const undeclared = routes.filter(
      (r) =>
        !r.path.test("/api/v1/openapi.json") &&
        !declared.some((op) => op.http!.method === r.method && r.path.test(sample(op.http!.path))),
    );
    expect(undeclared.map((r) => `${r.method} ${r.path.source}`)).toEqual([]);
  });

  it("every declared operation is served by a route, its own or one made from it", () => {
    const unserved = declared.filter(
      (op) => !routes.some((r) => r.method === op.http!.method && r.path.test(sample(op.http!.path))),
    );
    expect(unserved.map((op) => op.name)).toEqual([]);
  });
});
