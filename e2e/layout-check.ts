// What a person notices first on a small screen: text squeezed into a column a few characters
// wide (a name drawn one letter per line), and a page that scrolls sideways. Read in the page.
import type { Page } from "@playwright/test";

/**
 * Visible elements holding more than 3 characters of their own text, narrower than 3 × their font
 * size and squeezed: the text wraps onto more lines than a short word needs, or overflows. Each named.
 */
export async function narrowTextCells(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const name = (el: Element) => {
      const id = el.getAttribute("data-testid");
      const cls = (el.getAttribute("class") ?? "").split(/\s+/).slice(0, 4).join(".");
      return `${el.tagName.toLowerCase()}${id ? `[data-testid=${id}]` : ""}${cls ? `.${cls}` : ""}`;
    };
    // Screen-reader-only text is clipped to 1 px on purpose.
    const clipped = (el: Element) => {
      for (let e: Element | null = el; e; e = e.parentElement) {
        const s = getComputedStyle(e);
        if (s.clip !== "auto" && s.clip !== "" && s.position === "absolute") return true;
        if (s.clipPath !== "none") return true;
      }
      return false;
    };
    const found: string[] = [];
    for (const el of document.body.querySelectorAll("*")) {
      const texts = [...el.childNodes].filter((n) => n.nodeType === Node.TEXT_NODE);
      const own = texts
        .map((n) => n.textContent ?? "")
        .join("")
        .trim();
      if (own.length <= 3) continue;
      if (!el.checkVisibility({ visibilityProperty: true })) continue;
      const rect = el.getBoundingClientRect();
      if (rect.height === 0) continue;
      const fontSize = parseFloat(getComputedStyle(el).fontSize);
      if (rect.width >= 3 * fontSize || clipped(el)) continue;
      const lines = new Set(
        texts.flatMap((n) => {
          const range = document.createRange();
          range.selectNodeContents(n);
          return [...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top));
        }),
      ).size;
      if (lines <= 1 && el.scrollWidth <= el.clientWidth + 1) continue;
      found.push(`${name(el)} is ${Math.round(rect.width)} px wide for "${own.slice(0, 40)}"`);
    }
    return found;
  });
}

/** How far the document is wider than the viewport (0 when it does not scroll sideways). */
export const sidewaysScroll = (page: Page) =>
  page.evaluate(() => Math.max(0, document.documentElement.scrollWidth - window.innerWidth));
