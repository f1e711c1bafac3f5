// Which Chromium the e2e tests use, and when Playwright's own is installed first: decided from the
// environment and which files exist (injected here; nothing is downloaded).
import { describe, expect, it } from "vitest";
import { chooseChromium, ensureChromium, SYSTEM_CHROMIUM } from "./e2e-browser";

const existing =
  (...paths: string[]) =>
  (p: string) =>
    paths.includes(p);

describe("chooseChromium", () => {
  it("uses the system Chromium where there is one (no download: this may be an offline machine)", () => {
    expect(chooseChromium({}, existing(SYSTEM_CHROMIUM))).toEqual({
      executablePath: SYSTEM_CHROMIUM,
      install: false,
    });
  });

  it("uses CHROMIUM_PATH before anything else", () => {
    expect(
      chooseChromium(
        { CHROMIUM_PATH: "/opt/chrome/chrome" },
        existing("/opt/chrome/chrome", SYSTEM_CHROMIUM),
      ),
    ).toEqual({ executablePath: "/opt/chrome/chrome", install: false });
  });

  it("refuses a CHROMIUM_PATH that does not exist instead of quietly using another browser", () => {
    expect(() => chooseChromium({ CHROMIUM_PATH: "/opt/nothing" }, existing(SYSTEM_CHROMIUM))).toThrow(
      /CHROMIUM_PATH=\/opt\/nothing/,
    );
  });

  it("falls back to Playwright's own Chromium, installed first, on a machine without one", () => {
    expect(chooseChromium({}, existing())).toEqual({ executablePath: undefined, install: true });
    expect(chooseChromium({ CHROMIUM_PATH: "" }, existing())).toEqual({
      executablePath: undefined,
      install: true,
    });
  });
});

describe("ensureChromium", () => {
  it("runs Playwright's own install only when there is no system Chromium", () => {
    const runs: string[][] = [];
    const run = (args: string[]) => (runs.push(args), 0);
    expect(ensureChromium({}, existing(SYSTEM_CHROMIUM), run)).toBe(SYSTEM_CHROMIUM);
    expect(runs).toEqual([]);
    expect(ensureChromium({}, existing(), run)).toBe("Playwright's Chromium");
    expect(runs).toEqual([["install", "chromium"]]); // Playwright's own CLI
  });

  it("says what to do when the install fails", () => {
    expect(() => ensureChromium({}, existing(), () => 1)).toThrow(/CHROMIUM_PATH/);
  });
});
