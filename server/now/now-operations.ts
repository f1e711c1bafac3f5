// "Now", the control room's home: one read across the caller's pods. Declared once: the REST
// route, the reference and the browser's typed client come from this table.
import { defineOperation } from "../operations/operation";
import { ZNowQuery, ZNowResponse } from "../wire/now";
import { readNow } from "./read-now";

export const nowOperations = {
  readNow: defineOperation({
    name: "readNow",
    summary:
      "Every agent session in the pods the caller may see, grouped by where it stands: needs you (with the items " +
      "the caller may answer), working (the open turn's tool), idle, stale (silent past the threshold), ended " +
      "today (UTC); `podId`: that pod's part only. Read from each pod's state, bounded per pod and in all.",
    tag: "Now",
    input: ZNowQuery,
    output: ZNowResponse,
    guard: "authenticated",
    http: { method: "GET", path: "/api/v1/now", status: 200 },
    run: ({ app, identity }, a) => readNow(app.store, identity, a.podId),
  }),
};
