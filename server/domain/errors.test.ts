import { describe, expect, it, vi } from "vitest";
import { AppError } from "./errors";

describe("AppError across copies of its module", () => {
  it("an error thrown by another copy (the custom server's, seen from Next's bundle) is an AppError", async () => {
    vi.resetModules();
    const other = await import("./errors");
    expect(other.AppError).not.toBe(AppError);
    const refusal = new other.AppError(409, "humans_only", "escalations are answered by a human approver");
    expect(refusal instanceof AppError).toBe(true);
    expect(refusal).toMatchObject({ status: 409, code: "humans_only" });
  });

  it("anything else is not, and a subclass still tells its own apart", () => {
    class Busy extends AppError {}
    expect(new Error("x") instanceof AppError).toBe(false);
    expect(Object.assign(new Error("x"), { status: 409, code: "c" }) instanceof AppError).toBe(false);
    expect((null as unknown) instanceof AppError).toBe(false);
    expect(new Busy(503, "busy", "busy") instanceof AppError).toBe(true);
    expect(new AppError(409, "c", "m") instanceof Busy).toBe(false);
  });
});
