// The pod page's first render as a spectator sees it: a share link opened in headless Chromium,
// then navigation → the newest tape row on screen, for a pod the bench filled (120,000 events).
import { chooseChromium } from "../scripts/e2e-browser";
import { get, post } from "./http";

/** The median of three cold visits, in ms. */
export async function firstRender(base: string, podId: string): Promise<number> {
  const { chromium } = await import("@playwright/test");
  const link = JSON.parse((await post(`${base}/api/v1/pods/${podId}/share-links`, "{}")).text) as {
    token: string;
  };
  // The e2e tests' browser (CHROMIUM_PATH, the system's, else Playwright's own once installed).
  const { executablePath } = chooseChromium();
  const browser = await chromium.launch({
    executablePath,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-dev-shm-usage",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
    ],
  });
  try {
    const page = await (await browser.newContext()).newPage();
    await page.goto(`${base}/share/${link.token}`); // sets the share cookie; warms Next's page code
    const head = (JSON.parse((await get(`${base}/api/v1/pods/${podId}`)).text) as { eventCount: number })
      .eventCount;
    const times: number[] = [];
    for (let i = 0; i < 3; i++) {
      await page.evaluate(() => sessionStorage.clear()); // a cold tape: nothing restored from an earlier visit
      const t0 = performance.now();
      await page.goto(`${base}/pods/${podId}?tab=tape`);
      await page
        .locator(`[data-testid="tape-event"][data-seq="${head}"]`)
        .filter({ hasText: "bench-agent" })
        .waitFor({ timeout: 30_000 });
      times.push(performance.now() - t0);
    }
    return times.sort((a, b) => a - b)[1]!;
  } finally {
    await browser.close();
  }
}
