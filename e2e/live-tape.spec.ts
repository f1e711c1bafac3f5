import { test, expect, createPod, createPerson, postEvents, signIn, checkpoint } from "./fixtures";

test("two spectators see an event posted through the API, and a reload resumes without duplicates", async ({
  browser,
  request,
}) => {
  const pod = await createPod(request);
  const viewer = await createPerson(request, pod.id, "viewer");
  await postEvents(request, pod.id, [checkpoint("before anyone watched")]);

  const [a, b] = await Promise.all([browser.newContext(), browser.newContext()]);
  await Promise.all([signIn(a, viewer), signIn(b, viewer)]);
  const [pageA, pageB] = await Promise.all([a.newPage(), b.newPage()]);
  for (const page of [pageA, pageB]) {
    await page.goto(`/pods/${pod.id}?tab=tape`);
    await expect(page.getByTestId("connection-state")).toHaveAttribute("data-state", "live");
    await expect(page.getByTestId("tape-event")).toHaveCount(2); // the viewer's member.joined, then the checkpoint
  }

  await postEvents(request, pod.id, [checkpoint("posted while both watch")]);
  for (const page of [pageA, pageB]) {
    await expect(page.getByText("posted while both watch")).toBeVisible();
    await expect(page.getByTestId("tape-event")).toHaveCount(3);
  }

  await pageA.reload();
  await expect(pageA.getByTestId("connection-state")).toHaveAttribute("data-state", "live");
  await postEvents(request, pod.id, [checkpoint("after the reload")]);
  await expect(pageA.getByText("after the reload")).toBeVisible();
  const seqs = await pageA
    .getByTestId("tape-event")
    .evaluateAll((els) => els.map((el) => Number(el.getAttribute("data-seq"))));
  expect(seqs.sort((x, y) => x - y)).toEqual([1, 2, 3, 4]);

  await Promise.all([a.close(), b.close()]);
});

test("the pod list shows live event counts of the pods a person may watch", async ({
  page,
  context,
  request,
}) => {
  const pod = await createPod(request);
  const hidden = await createPod(request);
  await signIn(context, await createPerson(request, pod.id, "viewer"));
  await page.goto("/pods");
  const row = page.getByTestId("pod-row").filter({ hasText: pod.name });
  await expect(row.getByTestId("event-count")).toHaveText("1"); // the member.joined that let them in
  await expect(page.getByTestId("pod-row").filter({ hasText: hidden.name })).toHaveCount(0);
  await postEvents(request, pod.id, [checkpoint("one"), checkpoint("two")]);
  await expect(row.getByTestId("event-count")).toHaveText("3");
});

test("an unknown pod shows an error a person can act on", async ({ page, context, request }) => {
  const pod = await createPod(request);
  await signIn(context, await createPerson(request, pod.id, "viewer"));
  await page.goto("/pods/does-not-exist");
  await expect(page.getByRole("alert").filter({ hasText: "pod not found" })).toBeVisible();
});

test("anonymous visitors are sent to sign in", async ({ page }) => {
  await page.goto("/");
  await expect(page).toHaveURL(/\/sign-in\?next=%2F$/);
  await expect(page.getByRole("heading", { name: "Sign in to podwatch" })).toBeVisible();
});
