import { describe, expect, it } from "vitest";
import type { TapeBus } from "./bus";
import { InProcessBus } from "./in-process-bus";

describe("the in-process bus", () => {
  it("hands each payload to the listeners of its event, synchronously, until they leave", () => {
    const bus: TapeBus = new InProcessBus();
    const created: string[] = [];
    const onCreated = ({ podId }: { podId: string }) => created.push(podId);
    bus.on("pod-created", onCreated);
    bus.emit("pod-created", { podId: "p1" });
    bus.emit("credential-revoked", { kind: "share-link", linkId: "l1" });
    expect(created).toEqual(["p1"]);
    expect(bus.listenerCount("pod-created")).toBe(1);
    bus.off("pod-created", onCreated);
    bus.emit("pod-created", { podId: "p2" });
    expect(created).toEqual(["p1"]);
    expect(bus.listenerCount("pod-created")).toBe(0);
  });

  it("takes any number of listeners without a leak warning (one per waiting long-poll)", async () => {
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.name);
    process.on("warning", onWarning);
    const bus = new InProcessBus();
    let calls = 0;
    for (let i = 0; i < 50; i++) bus.on("committed", () => calls++);
    bus.emit("committed", { podId: "p", events: [] });
    await new Promise((r) => setImmediate(r));
    process.off("warning", onWarning);
    expect(calls).toBe(50);
    expect(warnings).not.toContain("MaxListenersExceededWarning");
  });
});
