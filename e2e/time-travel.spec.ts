import { randomUUID } from "node:crypto";
import { adminHeaders, createPerson, createPod, ev, expect, signIn, test } from "./fixtures";

// A lived-in pod: a 3,000-task plan, 300 tasks taken through implement → review → decide, and
// 15,000 notes (bench/history-seed.ts seeds the same shape), posted in 1,000-event batches.
const AGENTS = ["chair", "impl-1", "impl-2", "rev-1"];
const taskId = (n: number) => `task_${String(n).padStart(4, "0")}`;
function livedIn(): object[] {
  const events: object[] = [
    ev("member.joined", "admin", { memberId: "ana", kind: "human", displayName: "Ana", access: "approver" }),
    ...AGENTS.map((memberId) =>
      ev("member.joined", "admin", { memberId, kind: "agent", displayName: memberId }),
    ),
    ev("role.assigned", "admin", { memberId: "chair", role: "chair" }),
    ev("pod.scope_agreed", "admin", { scope: "s", successCriteria: ["c"] }),
    ev("pod.started", "admin", {}),
  ];
  for (let n = 1; n <= 3000; n += 500) {
    const tasks = Array.from({ length: 500 }, (_, k) => ({
      task_id: taskId(n + k),
      description: `Move part ${n + k} of the accounts module to the new schema and cover it with tests`,
      status: "pending",
      metadata: { area: "accounts", ticket: `MIG-${n + k}` },
    }));
    events.push(ev("plan.imported", "chair", { plan: { tasks } }));
  }
  for (let n = 1; n <= 300; n++) {
    const impl = n % 2 ? "impl-1" : "impl-2";
    events.push(
      ev("task.updated", impl, { taskId: taskId(n), status: "in_progress" }),
      ev(
        "evidence.bundle",
        impl,
        {
          bundleId: `ev-${n}`,
          commands: [{ command: "npm test", exit_code: 0 }],
          artifacts: [],
          env: { commit: "c" },
          manifestHash: "e".repeat(64),
        },
        { taskId: taskId(n) },
      ),
      ev("task.review_requested", impl, { taskId: taskId(n), evidenceIds: [`ev-${n}`] }),
      ev("review", "rev-1", { taskId: taskId(n), verdict: "approve" }),
      ev("decision", "ana", {
        subject: { kind: "task", id: taskId(n) },
        verdict: "approve",
        rationale: "ok",
      }),
    );
  }
  for (let i = 0; i < 15_000; i++)
    events.push(
      ev("note", "impl-1", { kind: "OBSERVATION", text: `observation ${i} ${randomUUID().slice(0, 8)}` }),
    );
  return events;
}

test("dragging the time-travel slider on a lived-in pod asks once, on release, and the board settles within a second", async ({
  page,
  context,
  request,
}) => {
  test.setTimeout(300_000);
  const pod = await createPod(request);
  const events = livedIn();
  for (let i = 0; i < events.length; i += 1000) {
    const res = await request.post(`/api/v1/pods/${pod.id}/events`, {
      data: { events: events.slice(i, i + 1000) },
      headers: adminHeaders,
      timeout: 120_000,
    });
    expect(res.status(), await res.text()).toBe(201);
  }
  // Behind the checkpoints the server makes as the tape passes each interval (reads of a pod take turns).
  expect(
    (
      await request.get(`/api/v1/pods/${pod.id}/state?atSeq=1`, { headers: adminHeaders, timeout: 120_000 })
    ).status(),
  ).toBe(200);

  await signIn(context, await createPerson(request, pod.id, "viewer"));
  await page.goto(`/pods/${pod.id}?tab=board`);
  const slider = page.getByLabel("Time travel");
  await expect(page.getByTestId("time-travel-label")).toHaveText(/^now \(#\d+\)$/, { timeout: 30_000 });
  const asked: string[] = [];
  page.on("request", (r) => r.url().includes("atSeq=") && asked.push(r.url()));

  // A drag from the right end to the first third, as a hand does it: many small moves, then let go.
  const box = (await slider.boundingBox())!;
  const y = box.y + box.height / 2;
  await page.mouse.move(box.x + box.width - 2, y);
  await page.mouse.down();
  for (let i = 1; i <= 30; i++) {
    await page.mouse.move(box.x + box.width - 2 - (i * (box.width * 2)) / 3 / 30, y);
    await page.waitForTimeout(15);
  }
  await page.mouse.up();
  const released = Date.now();
  const board = page.getByTestId("time-travel");
  await expect(board).toHaveAttribute("data-settled", "yes", { timeout: 10_000 });
  const settledMs = Date.now() - released;
  const label = await page.getByTestId("time-travel-label").textContent();
  const seq = Number(/as of #(\d+)/.exec(label ?? "")?.[1]);
  console.log(
    `time travel: released at seq ${seq}, settled in ${settledMs} ms after ${asked.length} request(s)`,
  );
  expect(seq).toBeGreaterThan(1);
  await expect(board).toHaveAttribute("data-shown-seq", String(seq));
  expect(asked.length, asked.join("\n")).toBe(1);
  expect(asked.at(-1)).toContain(`atSeq=${seq}`);
  expect(settledMs).toBeLessThan(1000);
});
