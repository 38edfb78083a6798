import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { appUrl, launchBrowser, signedInPage } from "../helpers/browser";
import { demoTaskId } from "../helpers/e2e-database";
import { dockerForTests } from "../helpers/docker";

// A curator clicks Validate on the good demo task and watches it happen: the live log
// streams from the worker running beside the e2e server, then the verdict appears.
const docker = await dockerForTests();

const taskId = demoTaskId;

describe.skipIf(!docker.ready)("validating a task from the browser", () => {
  let browser: Browser & { cleanup(): Promise<void> };
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.cleanup();
  });

  it("shows the live log and then the VALID verdict", async () => {
    const { page, context } = await signedInPage(browser, "curator");
    try {
      // the task page embeds the validation panel (so does /jobs/tasks/<id>)
      await page.goto(appUrl(`/tasks/${await taskId("demo__calc-1")}`));
      const panel = page.getByTestId("validation-panel");
      await panel.getByTestId("validation-verdict").waitFor();
      expect(await panel.getByTestId("validation-verdict").textContent()).toContain("PENDING");
      await panel.getByTestId("validate-button").click();

      const log = panel.getByTestId("live-log");
      await log.waitFor({ timeout: 30_000 });
      await page.waitForFunction(() => document.querySelector("[data-testid=live-log]")?.textContent?.includes("OPENSWE_EXIT_CODE="), null, { timeout: 240_000 });
      expect(await log.textContent()).toMatch(/applying test patch/);

      await page.waitForFunction(() => document.querySelector("[data-testid=validation-verdict]")?.textContent?.includes("VALID"), null, { timeout: 60_000 });
      expect(await panel.getByTestId("validation-verdict").textContent()).not.toContain("INVALID");
      // the runs history shows per-test outcomes
      await expect.poll(() => panel.getByTestId("test-result").count(), { timeout: 10_000 }).toBeGreaterThanOrEqual(6);
    } finally {
      await context.close();
    }
  });

  it("once a run has read the base files from the image, the fix patch's diff is of whole files: a line outside the hunk shows once unfolded", async () => {
    const { page, context } = await signedInPage(browser, "curator");
    try {
      const id = await taskId("demo__calc-1");
      // the run above (or the demo seed's) stored them; the page asks once per load, so wait here
      await expect
        .poll(async () => (await (await page.request.get(appUrl(`/api/v1/tasks/${id}/base-files?path=calc/ops.py`))).json()).stored, { timeout: 120_000 })
        .toBe(true);
      await page.goto(appUrl(`/tasks/${id}`));
      await page.locator("#patches-section").scrollIntoViewIfNeeded(); // Monaco loads when the diff comes into view
      const patch = page.getByTestId("patch-fix-patch");
      // calc/ops.py is 13 lines; the fix adds 2
      await patch.getByTestId("whole-file-note").filter({ hasText: "Whole file at the base commit (15 lines)" }).waitFor({ timeout: 60_000 });
      expect(await patch.getByTestId("reconstructed-note").count()).toBe(0);
      const diff = patch.getByTestId("monaco-diff").locator(".monaco-diff-editor");
      await diff.waitFor({ timeout: 60_000 });
      // line 1 is outside the hunk (@@ -10,4): folded until asked for, and real code once shown
      const firstLine = diff.locator(".editor.modified .view-line").filter({ hasText: "def add(a, b):" });
      // a fold widget per side (its inner .diff-hidden-lines has no height of its own): lines 1-9 are hidden
      const fold = diff.locator(".editor.modified .diff-hidden-lines-widget").filter({ visible: true }).first();
      await fold.waitFor({ timeout: 30_000 });
      await fold.getByText("9 hidden lines").waitFor();
      expect(await firstLine.count()).toBe(0);
      await fold.locator("a.default-control[title='Show Unchanged Region']").click();
      await firstLine.first().waitFor({ timeout: 10_000 });
    } finally {
      await context.close();
    }
  });

  it("runs an agent's symptom fix with the tests, and the reviewer who approved it is scored wrong", async () => {
    const { page, context } = await signedInPage(browser, "curator");
    try {
      await page.goto(appUrl(`/tasks/${await taskId("demo__calc-1")}`));
      const symptom = page.getByRole("listitem").filter({ hasText: "demo-symptom-agent" });
      await symptom.getByText("not run", { exact: true }).first().waitFor();
      await symptom.getByRole("button", { name: "Run with the tests" }).click();
      await symptom.getByText("not resolved", { exact: true }).first().waitFor({ timeout: 240_000 });

      await page.goto(appUrl("/reviewers"));
      const row = page.getByTestId("reviewer-scores").getByRole("row").filter({ hasText: "demo-reviewer" });
      await row.waitFor();
      // columns: reviewer, scored, correct approvals, false approvals, …
      await expect.poll(async () => (await row.getByRole("cell").allTextContents()).slice(0, 4)).toEqual(["demo-reviewer", "1", "0", "1"]);
    } finally {
      await context.close();
    }
  });
});
