import { describe, expect, it } from "vitest";
import { filtersFromQuery, queryOfFilters } from "./use-inbox-filters";

describe("the inbox's filters in the URL", () => {
  it("reads what the query says and writes it back, defaults left out", () => {
    const f = filtersFromQuery(
      new URLSearchParams("by=agent&pod=p1&kind=escalation&q=deploy+friday&muted=1"),
    );
    expect(f).toEqual({
      by: "agent",
      pod: "p1",
      agent: undefined,
      kind: "escalation",
      q: "deploy friday",
      muted: true,
    });
    expect(queryOfFilters(f)).toBe("?by=agent&pod=p1&kind=escalation&q=deploy+friday&muted=1");
    expect(queryOfFilters(filtersFromQuery(new URLSearchParams("")))).toBe("");
  });

  it("leaves out an unknown grouping and a word too long to be a filter", () => {
    const f = filtersFromQuery(new URLSearchParams(`by=colour&q=${"x".repeat(201)}`));
    expect(f).toMatchObject({ by: "pod", q: undefined });
  });
});
