import { describe, expect, it } from "vitest";
import { hidePeople, namesOfPeople, SOMEONE, type Person } from "./hide-people";

const person = (memberId: string, displayName: string, joinedSeq: number): Person => ({
  memberId,
  kind: "human",
  displayName,
  joinedSeq,
});
const agent = (memberId: string, displayName = memberId): Person => ({
  memberId,
  kind: "agent",
  displayName,
  joinedSeq: 1,
});

const members = [
  person("ana@example.com", "Ana", 3),
  person("bo@example.com", "bo@example.com", 4),
  person("ops", "Ops lead", 5),
  agent("Ana"),
];

describe("namesOfPeople", () => {
  it("names each person by their display name, by the seq they joined at when it is an email or taken", () => {
    expect(Object.fromEntries(namesOfPeople(members))).toEqual({
      "ana@example.com": "Ana #3",
      "bo@example.com": "person #4",
      ops: "Ops lead",
    });
  });

  it("keeps a person's name when someone else leaves", () => {
    const after = namesOfPeople(members.filter((m) => m.memberId !== "bo@example.com"));
    expect(after.get("ana@example.com")).toBe("Ana #3");
    const twins = namesOfPeople([person("a@x.io", "Sam", 2), person("b@x.io", "Sam", 7)]);
    expect([...twins.values()]).toEqual(["Sam #2", "Sam #7"]);
  });
});

describe("hidePeople", () => {
  const hide = hidePeople(namesOfPeople(members));

  it("leaves no email address anywhere: values, keys, inside text, of people the pod names or not", () => {
    const value = {
      actor: "ana@example.com",
      by: "ops",
      body: {
        text: "ask BO@example.com or cy@old.example.org, cc ana@example.com",
        nested: [{ who: "bo@example.com" }, 42, null, true],
      },
      perPerson: { "ana@example.com": 1 },
    };
    const seen = hide(value);
    expect(JSON.stringify(seen)).not.toMatch(/@/);
    expect(seen).toEqual({
      actor: "Ana #3",
      by: "Ops lead",
      body: {
        text: `ask person #4 or ${SOMEONE}, cc Ana #3`,
        nested: [{ who: "person #4" }, 42, null, true],
      },
      perPerson: { "Ana #3": 1 },
    });
  });

  it("gives back the same value where it names nobody, and leaves non-addresses alone", () => {
    const value = { tool: "npm i @scope/pkg", at: "@here", list: ["a", "b"] };
    expect(hide(value)).toBe(value);
  });

  it("cleans in steps (a child of the top two levels per step) as it cleans at once", () => {
    const view = {
      tasks: { t1: { by: "ana@example.com" }, t2: { by: "impl" } },
      members: [{ id: "ops" }],
      seq: 3,
    };
    const steps = hide.steps(view);
    let step = steps.next();
    let count = 0;
    for (; !step.done; step = steps.next()) count++;
    expect(step.value).toEqual(hide(view));
    expect(step.value).toEqual({
      tasks: { t1: { by: "Ana #3" }, t2: { by: "impl" } },
      members: [{ id: "Ops lead" }],
      seq: 3,
    });
    expect(count).toBe(6); // tasks, members, seq; t1, t2; the one member
    const untouched = { a: [1, 2], b: { c: "x" } };
    const quiet = hide.steps(untouched);
    let last = quiet.next();
    while (!last.done) last = quiet.next();
    expect(last.value).toBe(untouched);
  });

  it("hides addresses even when the pod names nobody", () => {
    expect(hidePeople(new Map())("mail x.y+z@sub.example.co.uk now")).toBe(`mail ${SOMEONE} now`);
  });

  it("cleans a long run of letters around an @ in one pass, not one per letter", () => {
    // Unbounded runs made the pattern quadratic: this took minutes (20k letters took a second).
    const long = `${"a".repeat(200_000)}@x and b@${"c".repeat(200_000)}`;
    expect(hidePeople(new Map())(long)).toBe(long);
  });

  it("blanks the keys it is told to, whole", () => {
    const clean = hidePeople(new Map(), new Set(["hash"]));
    expect(clean({ hash: "ab12", actor: "a@b.io", body: { hash: 3 } })).toEqual({
      hash: "",
      actor: SOMEONE,
      body: { hash: 3 },
    });
  });
});
