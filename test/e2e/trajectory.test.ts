import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { appUrl, launchBrowser, signedInPage } from "../helpers/browser";
import { demoTaskId, withE2eDatabase } from "../helpers/e2e-database";

// A viewer follows a task's trajectory link and reads the agent's run step by step with
// the keyboard. The demo seed imports a real SWE-agent trajectory (pydicom__pydicom-1458.traj,
// 12 steps) through the importer users use.

const taskId = demoTaskId;
// the task's own trajectory links, not the navigation's trajectory pages (labels, search)
const TRAJECTORY_LINK =
  'main a[href^="/trajectories/"]:not([href^="/trajectories/labels"]):not([href^="/trajectories/search"])';

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
      await page.locator(TRAJECTORY_LINK).first().click();
      await page.waitForURL(/\/trajectories\//);

      await page.getByRole("heading", { name: /Solver trajectory/ }).waitFor();
      const summary = page.locator("header dl");
      expect(await summary.textContent()).toContain("pydicom__pydicom-1458");
      expect(await summary.textContent()).toMatch(/Steps\s*12/);

      const steps = page.getByRole("listbox", { name: /Steps/ });
      await expect.poll(() => steps.getByRole("option").count()).toBe(12);
      const detail = page.locator("[aria-live=polite]:not(.monaco-status)");
      await detail.getByRole("heading", { name: "Step 1" }).waitFor();
      await expect.poll(() => detail.textContent()).toContain("create reproduce_bug.py");

      await steps.focus();
      await page.keyboard.press("j");
      await page.keyboard.press("j");
      await detail.getByRole("heading", { name: "Step 3" }).waitFor();
      await expect.poll(() => detail.textContent()).toContain("python reproduce_bug.py");
      expect(await steps.getByRole("option", { selected: true }).textContent()).toContain("Step 3");

      await page.keyboard.press("k");
      await detail.getByRole("heading", { name: "Step 2" }).waitFor();
      await expect.poll(() => detail.textContent()).toContain("from pydicom.dataset import Dataset, FileMetaDataset");

      // a click selects too, and the observation of that step is shown
      await steps.getByRole("option").filter({ hasText: "Step 4" }).click();
      await detail.getByRole("heading", { name: "Step 4" }).waitFor();
      await expect.poll(() => detail.textContent()).toContain('find_file "numpy_handler.py"');
      expect(await detail.getByRole("heading", { name: "Observation" }).count()).toBe(1);
    } finally {
      await context.close();
    }
  });

  it("filters by kind, searches on the server and jumps between matches, and opens a step's permalink in a fresh page", async () => {
    const { page, context } = await signedInPage(browser, "viewer");
    try {
      await page.goto(appUrl(`/tasks/${await taskId("pydicom__pydicom-1458")}`));
      const href = await page.locator(TRAJECTORY_LINK).first().getAttribute("href");
      await page.goto(appUrl(href!));
      const steps = page.getByRole("listbox", { name: /Steps/ });
      const detail = page.getByTestId("step-detail");
      await detail.getByRole("heading", { name: "Step 1" }).waitFor();

      // counts per kind; the three edits SWE-agent refused for syntax errors are errors
      const kinds = page.getByRole("group", { name: "Filter steps by kind" });
      expect(await kinds.textContent()).toMatch(/Edit 3.*Error 3/);
      await kinds.getByRole("button", { name: /Error 3/ }).click();
      await expect.poll(() => steps.getByRole("option").count()).toBe(3);
      // the rows of the filtered list arrive in one window request
      await expect
        .poll(() => steps.getByRole("option").allTextContents())
        .toEqual([
          expect.stringContaining("Step 6"),
          expect.stringContaining("Step 7"),
          expect.stringContaining("Step 8"),
        ]);
      await detail.getByRole("heading", { name: "Step 6" }).waitFor();
      await kinds.getByRole("button", { name: /All 12/ }).click();
      await expect.poll(() => steps.getByRole("option").count()).toBe(12);

      // a word of two steps' thoughts: the first match is shown, marked, and Next goes to the other
      await page.getByRole("searchbox", { name: "Search in this trajectory" }).fill("indentation");
      await page.getByRole("button", { name: "Search", exact: true }).click();
      await expect.poll(() => page.getByTestId("search-status").textContent()).toMatch(/1 of 2 matching steps/);
      await detail.getByRole("heading", { name: "Step 2" }).waitFor();
      expect((await detail.locator("mark").first().textContent())?.toLowerCase()).toBe("indentation");
      await page.getByRole("button", { name: "Next match" }).click();
      await detail.getByRole("heading", { name: "Step 9" }).waitFor();
      await expect.poll(() => page.getByTestId("search-status").textContent()).toMatch(/2 of 2/);

      // End reaches the last step at once
      await steps.focus();
      await page.keyboard.press("End");
      await detail.getByRole("heading", { name: "Step 12" }).waitFor();
      expect(await steps.getByRole("option", { selected: true }).textContent()).toContain("Step 12");

      // pick a line range of step 5's observation: the URL is its permalink
      await page.getByRole("spinbutton", { name: "Go to step" }).fill("5");
      await page.getByRole("button", { name: "Go", exact: true }).click();
      await detail.getByRole("heading", { name: "Step 5" }).waitFor();
      await detail.getByRole("button", { name: /^Line 3:/ }).click();
      await detail.getByRole("button", { name: /^Line 5:/ }).click({ modifiers: ["Shift"] });
      await expect.poll(() => new URL(page.url()).searchParams.get("lines")).toBe("3-5");
      const permalink = page.url();
      expect(new URL(permalink).searchParams.get("step")).toBe("5");

      const fresh = await context.newPage();
      await fresh.goto(permalink);
      const freshDetail = fresh.getByTestId("step-detail");
      await freshDetail.getByRole("heading", { name: "Step 5" }).waitFor();
      expect(
        await fresh.getByRole("listbox", { name: /Steps/ }).getByRole("option", { selected: true }).textContent(),
      ).toContain("Step 5");
      const picked = freshDetail.locator('[data-line][aria-current="true"]');
      await expect.poll(() => picked.count()).toBe(3);
      expect(await picked.first().textContent()).toContain("273:");
      // the search came along in the link, and its words are marked
      await expect.poll(() => fresh.getByTestId("search-status").textContent()).toMatch(/2 matching steps/);
    } finally {
      await context.close();
    }
  });

  it("shows an edit as a Monaco diff with the edits so far, annotates a step and finds it on the label page, and compares two trajectories", async () => {
    const { page, context } = await signedInPage(browser, "curator");
    try {
      const { solver, reviewer } = await withE2eDatabase(async (client) => {
        const one = async (sql: string) => (await client.query<{ id: string }>(sql)).rows[0].id;
        return {
          solver: await one(
            "select id from trajectories where external_id like '%pydicom__pydicom-1458%' order by created_at limit 1",
          ),
          reviewer: await one(
            "select t.id from trajectories t join tasks k on k.id = t.task_id where k.instance_id = 'demo__calc-1' and t.role = 'REVIEWER' order by t.external_id limit 1",
          ),
        };
      });

      // step 9 replaced lines 287–296 of numpy_handler.py: a diff whose left side is the lines the agent had seen
      await page.goto(appUrl(`/trajectories/${solver}?step=9`));
      const detail = page.getByTestId("step-detail");
      await detail.getByRole("heading", { name: "Step 9" }).waitFor();
      const diff = detail.getByTestId("edit-diff");
      expect(await diff.getByRole("heading").textContent()).toMatch(
        /replaced lines in .*numpy_handler\.py from line 287 to 296/,
      );
      await diff.locator(".monaco-diff-editor").waitFor();
      await expect.poll(() => diff.locator(".monaco-diff-editor").textContent()).toContain("PixelRepresentation");
      await detail.getByRole("button", { name: "Show every edit up to step 9" }).click();
      const soFar = detail.getByTestId("edits-so-far");
      await expect
        .poll(() => soFar.textContent())
        .toMatch(/reproduce_bug\.py.*step 1 .*step 2 .*numpy_handler\.py.*step 9/);

      // annotate step 3 and find it on the label page, then follow it back
      await page.goto(appUrl(`/trajectories/${solver}?step=3`));
      await detail.getByRole("heading", { name: "Step 3" }).waitFor();
      await detail.getByLabel("Label").selectOption("ran a reproducer");
      await detail.getByLabel("Comment").fill("runs the script that shows the crash");
      await detail.getByRole("button", { name: "Annotate step 3" }).click();
      const annotations = detail.getByTestId("step-annotations");
      await expect.poll(() => annotations.textContent()).toContain("runs the script that shows the crash");
      await annotations.getByRole("link", { name: "ran a reproducer" }).click();
      await page.waitForURL(/\/trajectories\/labels\?label=ran/);
      const listed = page.getByRole("list", { name: "Steps labelled ran a reproducer" });
      await expect.poll(() => listed.textContent()).toMatch(/Step 3 of .*pydicom__pydicom-1458/);
      expect(await page.getByRole("table", { name: "Per model" }).textContent()).toContain("solver");
      await listed.getByRole("link", { name: /Step 3 of/ }).click();
      await page.getByTestId("step-detail").getByRole("heading", { name: "Step 3" }).waitFor();

      // two reviewers of demo__calc-1, opened from one of them: the other's decision and diagnosis beside it
      await page.goto(appUrl(`/trajectories/${reviewer}`));
      await page.getByText(/Other trajectories on this task/).click();
      await page
        .getByRole("listitem")
        .filter({ hasText: "reviewer, demo-reviewer" })
        .getByRole("link", { name: "Compare with this one" })
        .click();
      await page.waitForURL(/\/trajectories\/compare\?a=/);
      await page.getByRole("heading", { name: "Compare trajectories" }).waitFor();
      expect(await page.getByTestId("decision-A").textContent()).toContain("APPROVE");
      expect(await page.getByTestId("decision-B").textContent()).toContain("APPROVE");
      expect(await page.locator(".bg-amber-50", { hasText: "Diagnosis" }).count()).toBe(2);

      // a run against itself: every act aligned with its twin
      await page.goto(appUrl(`/trajectories/compare?a=${solver}&b=${solver}`));
      await expect.poll(() => page.getByTestId("alignment-summary").textContent()).toMatch(/^12 of 12 aligned rows/);
    } finally {
      await context.close();
    }
  });
});
