import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { appUrl, launchBrowser, signedInPage } from "../helpers/browser";
import { demoTaskId } from "../helpers/e2e-database";

// A viewer follows a task's trajectory link and reads the agent's run step by step with
// the keyboard. The demo seed imports a real SWE-agent trajectory (pydicom__pydicom-1458.traj,
// 12 steps) through the importer users use.

const taskId = demoTaskId;

describe("reading a trajectory", () => {
  let browser: Browser & { cleanup(): Promise<void> };
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.cleanup();
  });

  it("opens from its task and moves through the steps with j and k", async () => {
    const { page, context } = await signedInPage(browser, "viewer");
    try {
      await page.goto(appUrl(`/tasks/${await taskId("pydicom__pydicom-1458")}`));
      await page.locator('a[href^="/trajectories/"]').first().click();
      await page.waitForURL(/\/trajectories\//);

      await page.getByRole("heading", { name: /Solver trajectory/ }).waitFor();
      const summary = page.locator("header dl");
      expect(await summary.textContent()).toContain("pydicom__pydicom-1458");
      expect(await summary.textContent()).toMatch(/Steps\s*12/);

      const steps = page.getByRole("listbox", { name: /Steps/ });
      await expect.poll(() => steps.getByRole("option").count()).toBe(12);
      const detail = page.locator("[aria-live=polite]:not(.monaco-status)");
      await detail.getByRole("heading", { name: "Step 1" }).waitFor();
      expect(await detail.textContent()).toContain("create reproduce_bug.py");

      await steps.focus();
      await page.keyboard.press("j");
      await page.keyboard.press("j");
      await detail.getByRole("heading", { name: "Step 3" }).waitFor();
      expect(await detail.textContent()).toContain("python reproduce_bug.py");
      expect(await steps.getByRole("option", { selected: true }).textContent()).toContain("Step 3");

      await page.keyboard.press("k");
      await detail.getByRole("heading", { name: "Step 2" }).waitFor();
      expect(await detail.textContent()).toContain("from pydicom.dataset import Dataset, FileMetaDataset");

      // a click selects too, and the observation of that step is shown
      await steps.getByRole("option").filter({ hasText: "Step 4" }).click();
      await detail.getByRole("heading", { name: "Step 4" }).waitFor();
      expect(await detail.textContent()).toContain('find_file "numpy_handler.py"');
      expect(await detail.getByRole("heading", { name: "Observation" }).count()).toBe(1);
    } finally {
      await context.close();
    }
  });
});
