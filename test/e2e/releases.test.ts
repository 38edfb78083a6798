import { describe, expect, it } from "vitest";
import { appUrl, browserForFile, signedInPage } from "../helpers/browser";

// Releases in a real Chromium against the production build: the demo's two releases are
// compared by keyboard only, and the diff says what was added, removed (its approval went
// stale) and changed, with why; a curator names a new release through the form.

describe("releases", () => {
  const chromium = browserForFile();

  it("compares the demo's releases by keyboard: the diff lists added, removed and changed tasks with why", async () => {
    const { page, context } = await signedInPage(chromium.browser, "curator");
    try {
      await page.goto(appUrl("/releases"));
      const table = page.getByTestId("releases-table");
      await expect.poll(() => table.textContent()).toContain("demo-v1");
      expect(await table.textContent()).toContain("demo-v2");
      // the compare form defaults to the two newest releases (demo-v1 → demo-v2 in the demo)
      await page.getByLabel("From").focus();
      await page.keyboard.press("Tab");
      await page.keyboard.press("Tab");
      await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe("Compare");
      await page.keyboard.press("Enter");
      await page.waitForURL(/\/releases\/diff\?from=.+&to=.+/);

      await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toBe("From demo-v1 to demo-v2");
      const counts = await page.getByTestId("release-diff-counts").textContent();
      expect(counts).toMatch(/Added1/);
      expect(counts).toMatch(/Removed1/);
      expect(counts).toMatch(/Changed2/);
      expect(await page.getByTestId("diff-added").textContent()).toContain("demo-flow__calc-median");
      const removed = await page.getByTestId("diff-removed").textContent();
      expect(removed).toContain("demo-gen__calc-1-empty-raises");
      expect(removed).toContain("decision went stale: the candidate patches changed");
      const changed = await page.getByTestId("diff-changed").textContent();
      expect(changed).toContain("demo-gen__calc-1-empty-zero");
      expect(changed).toContain("evidence changed: candidate patch");
      expect(changed).toContain("decision changed: approve by curator@swe-curator.local → approve by");

      // a task of the diff opens by keyboard
      await page.getByTestId("diff-added").getByRole("link", { name: "demo-flow__calc-median" }).focus();
      await page.keyboard.press("Enter");
      await page.waitForURL(/\/tasks\//);
    } finally {
      await context.close();
    }
  });

  it("a curator names a new release; its page offers the export files under its name", async () => {
    const { page, context } = await signedInPage(chromium.browser, "curator");
    try {
      await page.goto(appUrl("/releases"));
      await page.getByLabel("Name").fill("e2e-v3");
      await page.keyboard.press("Enter");
      await page.waitForURL(/\/releases\/(?!diff)[^/?]+$/);
      await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toBe("Release e2e-v3");
      expect(await page.getByRole("link", { name: /Download tasks/ }).textContent()).toContain(
        "swe-curator-release-e2e-v3.jsonl",
      );
      // a taken name is refused with one sentence
      await page.goto(appUrl("/releases"));
      await page.getByLabel("Name").fill("e2e-v3");
      await page.keyboard.press("Enter");
      // (Next's route announcer is an alert too: look for ours by its text)
      await expect
        .poll(() => page.getByRole("alert").filter({ hasText: 'A release named "e2e-v3" exists already' }).count())
        .toBe(1);
    } finally {
      await context.close();
    }
  });
});
