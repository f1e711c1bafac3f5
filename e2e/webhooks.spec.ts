// A pod admin adds a webhook in the browser: a bad URL is refused in the form, the
// signing secret is shown once (copied, gone after Done and a reload), and "Send a
// test" reaches a receiver on loopback that verifies the signature; the log says delivered.
import AxeBuilder from "@axe-core/playwright";
import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { test, expect, createPod, createPerson, signIn } from "./fixtures";

function signedBy(secret: string, h: IncomingHttpHeaders, body: string): boolean {
  const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64");
  const expected = Buffer.from(
    createHmac("sha256", key).update(`${h["webhook-id"]}.${h["webhook-timestamp"]}.${body}`).digest("base64"),
  );
  const fresh = Math.abs(Date.now() / 1000 - Number(h["webhook-timestamp"])) < 300;
  return (
    fresh &&
    String(h["webhook-signature"])
      .split(" ")
      .some((s) => {
        const given = Buffer.from(s.split(",")[1] ?? "");
        return s.startsWith("v1,") && given.length === expected.length && timingSafeEqual(given, expected);
      })
  );
}

test("a pod admin adds a webhook, keeps its secret once, and a test delivery arrives signed", async ({
  page,
  context,
  request,
  baseURL,
}) => {
  const received: { headers: IncomingHttpHeaders; body: string }[] = [];
  const receiver = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => (received.push({ headers: req.headers, body }), res.writeHead(200).end("thanks")));
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
  const hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/podwatch`;
  try {
    const pod = await createPod(request);
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseURL! });
    await signIn(context, await createPerson(request, pod.id, "admin"));
    await page.goto(`/pods/${pod.id}?tab=members&section=webhooks`);

    const form = page.getByRole("form", { name: "Add a webhook endpoint" });
    await expect(page.getByText("No webhooks yet.")).toBeVisible();
    await form.getByLabel("URL").fill("ftp://example.com/hook");
    await form.getByRole("button", { name: "Add endpoint" }).click();
    await expect(page.getByTestId("webhook-error")).toContainText("only http:// and https://");
    await expect(page.getByText("No webhooks yet.")).toBeVisible();

    await form.getByLabel("URL").fill(hookUrl);
    await expect(form.getByRole("checkbox", { name: /An item waits in the inbox/ })).toBeChecked();
    await form.getByRole("button", { name: "Add endpoint" }).click();
    const secretField = page.getByRole("textbox", { name: "The new webhook's signing secret" });
    await expect(secretField).toHaveValue(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const secret = await secretField.inputValue();
    await page.getByRole("button", { name: "Copy secret" }).click();
    await expect(page.getByRole("button", { name: "Copied" })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);

    const row = page.getByTestId("webhook-row");
    await expect(row).toHaveCount(1);
    await expect(row.getByTestId("webhook-row-url")).toHaveText(hookUrl);
    await expect(row.getByText("enabled")).toBeVisible();

    // The webhooks section: no serious axe findings, light and dark; nothing scrolls sideways at 390 px.
    for (const colorScheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme });
      const { violations } = await new AxeBuilder({ page }).include("#webhooks").analyze();
      expect(
        violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id),
        colorScheme,
      ).toEqual([]);
    }
    await page.emulateMedia({ colorScheme: null });

    await page.getByTestId("webhook-secret-done").click();
    await expect(secretField).toHaveCount(0);
    await page.reload();
    await expect(page.getByTestId("webhook-row")).toHaveCount(1);
    expect(await page.content()).not.toContain(secret.slice(6));

    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByTestId("webhook-row").getByRole("button", { name: "Deliveries" }).click();
    await expect(page.getByText("Nothing sent yet.")).toBeVisible();
    await page.getByRole("button", { name: "Send a test" }).click();
    const delivery = page.getByTestId("webhook-delivery").filter({ hasText: "webhook.test" });
    await expect(delivery).toHaveAttribute("data-status", "delivered");
    await expect(delivery).toContainText("HTTP 200");
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

    expect(received).toHaveLength(1);
    expect(JSON.parse(received[0]!.body)).toMatchObject({
      type: "webhook.test",
      data: { pod: { id: pod.id } },
    });
    expect(signedBy(secret, received[0]!.headers, received[0]!.body)).toBe(true);
    await expect(delivery).toContainText(String(received[0]!.headers["webhook-id"]));

    // Disable, then delete after the confirmation.
    await page.getByRole("button", { name: `Disable the webhook to ${hookUrl}` }).click();
    await expect(page.getByTestId("webhook-disabled-reason")).toHaveText("disabled by a pod admin");
    await page.getByRole("button", { name: `Delete the webhook to ${hookUrl}` }).click();
    await page.getByTestId("webhook-delete-confirm").getByRole("button", { name: "Yes, delete" }).click();
    await expect(page.getByText("No webhooks yet.")).toBeVisible();
  } finally {
    await new Promise((r) => receiver.close(r));
  }
});
