import { describe, expect, it } from "vitest";
import { escapedName, nameSkeleton, personDisplayName, reservedLookAlike } from "./reserved-names";
import { refuseSystemVoice } from "./policy";

describe("reserved names are compared as a person reads them", () => {
  it("finds podwatch behind invisible characters: zero-width space and joiners, soft hyphen, word joiner, BOM, variation selectors", () => {
    for (const hidden of [
      "\u200B",
      "\u200C",
      "\u200D",
      "\u00AD",
      "\u2060",
      "\uFEFF",
      "\uFE0F",
      "\u{E0041}",
      "\u180E",
      "\u034F",
    ]) {
      expect(reservedLookAlike(`pod${hidden}watch`), JSON.stringify(hidden)).toBe("podwatch");
    }
  });

  it("finds podwatch in look-alike letters, compatibility forms and other cases (UTS #39 skeletons after NFKC)", () => {
    const lookAlikes = [
      "p\u043Edwatch", // Cyrillic о
      "\u0440\u043Edw\u0430t\u0441h", // Cyrillic р, о, а, с
      "p0dwatch", // digit zero
      "\uFF50\uFF4F\uFF44\uFF57\uFF41\uFF54\uFF43\uFF48", // fullwidth
      "PodWatch",
      "PODWATCH",
      " podwatch ",
      "po\u0501watch", // Cyrillic ԁ
      "podwat\u0441\u04BB", // Cyrillic с, һ
    ];
    for (const name of lookAlikes) expect(reservedLookAlike(name), escapedName(name)).toBe("podwatch");
    expect(reservedLookAlike("podwatch")).toBe("podwatch");
  });

  it("finds podwatch reordered by bidi controls, which draw it in an order other than the text's", () => {
    // An override or isolate shows "hctawdop" (or "pod" and "hctaw") as podwatch on screen.
    for (const name of [
      "\u202Ehctawdop",
      "\u202Ehctawdop\u202C",
      "pod\u202Ehctaw",
      "\u2067hctawdop\u2069",
      "\u200Fhct\u202Eawdop",
    ]) {
      expect(reservedLookAlike(name), escapedName(name)).toBe("podwatch");
    }
  });

  it("leaves other names alone", () => {
    for (const name of [
      "podwatcher",
      "pod watch",
      "pod-watch",
      "impl-1",
      "ana@example.com",
      "Ana",
      "watchpod",
      "",
      "p\u00F6dwatch",
    ]) {
      expect(reservedLookAlike(name), name).toBeNull();
    }
  });

  it("folds a skeleton the same for the same reading, and bounds the work", () => {
    expect(nameSkeleton("pod\u200Bwatch")).toBe(nameSkeleton("PODWATCH"));
    expect(nameSkeleton("x".repeat(100_000))).toHaveLength(1_000);
  });

  it("a person whose account name reads as podwatch shows as their email in a pod", () => {
    expect(personDisplayName("Ada", "ada@x")).toBe("Ada");
    expect(personDisplayName("P\u043EdWatch", "pw@x")).toBe("pw@x");
    expect(personDisplayName("", "pw@x")).toBe("pw@x");
  });

  it("shows the differing characters by their codes in a message", () => {
    expect(escapedName("p\u043Ed\u200Bwatch\\")).toBe('"p\\u043Ed\\u200Bwatch\\u005C"');
  });
});

describe("refuseSystemVoice refuses look-alikes of podwatch", () => {
  const joined = (memberId: string, displayName = "x") => ({
    type: "member.joined",
    actor: "admin",
    body: { memberId, kind: "agent", displayName },
  });

  it("as a member id, with a 422 that shows the hidden character", () => {
    const v = refuseSystemVoice([joined("pod\u200Bwatch")]);
    expect(v).toMatchObject({ ok: false, status: 422, code: "reserved_member" });
    expect(v.ok ? "" : v.message).toContain('"pod\\u200Bwatch" reads as podwatch');
    for (const id of ["p\u043Edwatch", "pod\u00ADwatch", "pod\u2060watch"])
      expect(refuseSystemVoice([joined(id)])).toMatchObject({ ok: false, code: "reserved_member" });
  });

  it("as a display name", () => {
    expect(refuseSystemVoice([joined("bot", "podwatch")])).toMatchObject({
      ok: false,
      status: 422,
      code: "reserved_member",
      message: expect.stringContaining("display name"),
    });
    expect(refuseSystemVoice([joined("bot", "P\u043EdWatch")])).toMatchObject({
      ok: false,
      code: "reserved_member",
    });
    expect(refuseSystemVoice([joined("bot", "Bot")])).toEqual({ ok: true });
  });

  it("as an actor", () => {
    expect(refuseSystemVoice([{ type: "checkpoint", actor: "p\u043Edwatch" }])).toMatchObject({
      ok: false,
      status: 403,
      code: "system_actor",
    });
  });
});
