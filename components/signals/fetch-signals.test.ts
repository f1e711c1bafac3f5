import { describe, expect, it } from "vitest";
import { ApiError } from "../shared/api-client";
import {
  busyMessage,
  parseRetryAfter,
  RecomputeBusyError,
  shouldRetrySignals,
  signalsRetryDelay,
} from "./fetch-signals";

const now = Date.parse("2026-03-10T12:00:00Z");

describe("a busy recomputation", () => {
  it("reads Retry-After in seconds or as a date, bounded, 2 s when missing or nonsense", () => {
    expect(parseRetryAfter("2", now)).toBe(2_000);
    expect(parseRetryAfter(" 5 ", now)).toBe(5_000);
    expect(parseRetryAfter("Tue, 10 Mar 2026 12:00:07 GMT", now)).toBe(7_000);
    expect(parseRetryAfter(null, now)).toBe(2_000);
    expect(parseRetryAfter("", now)).toBe(2_000);
    expect(parseRetryAfter("soon", now)).toBe(2_000);
    expect(parseRetryAfter("0", now)).toBe(1_000);
    expect(parseRetryAfter("86400", now)).toBe(30_000);
    expect(parseRetryAfter("Tue, 10 Mar 2026 11:00:00 GMT", now)).toBe(1_000);
  });

  it("is retried once, after the time the server named", () => {
    const busy = new RecomputeBusyError(2_000, "busy");
    expect(shouldRetrySignals(0, busy)).toBe(true);
    expect(shouldRetrySignals(1, busy)).toBe(false);
    expect(signalsRetryDelay(0, busy)).toBe(2_000);
    expect(busyMessage(busy)).toBe("Recomputing is busy; trying again in 2 s…");
  });

  it("a bad request is not retried; a server or network failure twice", () => {
    expect(shouldRetrySignals(0, new ApiError(400, "bad window"))).toBe(false);
    expect(shouldRetrySignals(0, new ApiError(403, "no access"))).toBe(false);
    expect(shouldRetrySignals(1, new ApiError(500, "oops"))).toBe(true);
    expect(shouldRetrySignals(2, new ApiError(500, "oops"))).toBe(false);
    expect(shouldRetrySignals(1, new TypeError("Failed to fetch"))).toBe(true);
    expect(signalsRetryDelay(1, new TypeError("Failed to fetch"))).toBe(2_000);
  });
});
