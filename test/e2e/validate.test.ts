import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Locator, Page } from "playwright-core";
import { appUrl, launchBrowser, signedInPage } from "../helpers/browser";
import { demoTaskId } from "../helpers/e2e-database";
import { importThroughApi } from "../helpers/e2e-import";
import { dockerForTests } from "../helpers/docker";

// A curator clicks Validate on the good demo task and watches it happen: the live log
// streams from the worker running beside the e2e server, then the verdict appears.
const docker = await dockerForTests();

const taskId = demoTaskId;

/** Waits until a run has read the task's file from the built image: a diff asks for it once per page load. */
async function baseFileStored(page: Page, id: string, filePath: string) {
  await expect
    .poll(
      async () =>
        (await (await page.request.get(appUrl(`/api/v1/tasks/${id}/base-files?path=${filePath}`))).json()).stored,
      { timeout: 120_000 },
    )
    .toBe(true);
}

/** In a whole-file Monaco diff, a line far from the change is folded away (`hidden` says how many lines), and shows once unfolded. */
async function unfoldsTo(diff: Locator, hidden: string, text: string) {
  const line = diff.locator(".editor.modified .view-line").filter({ hasText: text });
  // a fold widget per side (its inner .diff-hidden-lines has no height of its own)
  const fold = diff.locator(".editor.modified .diff-hidden-lines-widget").filter({ visible: true }).first();
  await fold.waitFor({ timeout: 30_000 });
  await fold.getByText(hidden).waitFor();
  expect(await line.count()).toBe(0);
  await fold.locator("a.default-control[title='Show Unchanged Region']").click();
  await line.first().waitFor({ timeout: 10_000 });
}

// A SWE-agent 1.x run on demo__calc-1 that edits calc/ops.py twice, as its actions are written
// (shell-quoted): the second edit's old text is in the file only once the first is replayed.
const shellQuote = (text: string) => `'${text.replaceAll("'", `'"'"'`)}'`;
const replaceInOps = (old: string, next: string) =>
  `str_replace_editor str_replace /testbed/calc/ops.py --old_str ${shellQuote(old)} --new_str ${shellQuote(next)}`;
const TWO_EDITS_AGENT = "e2e-two-edits-agent";
const twoEditsTrajectory = {
  environment: "main",
  replay_config: JSON.stringify({
    agent: { model: { name: TWO_EDITS_AGENT } },
    problem_statement: { id: "demo__calc-1" },
  }),
  info: { exit_status: "submitted" },
  trajectory: [
    {
      thought: "Where does mean() divide?",
      action: "str_replace_editor view /testbed/calc/ops.py",
      observation:
        "    11\tdef mean(values):\n    12\t    values = list(values)\n    13\t    return sum(values) / len(values)",
    },
    {
      thought: "Refuse an empty sequence.",
      action: replaceInOps(
        "    values = list(values)\n    return",
        '    values = list(values)\n    if not values:\n        raise ValueError("mean() of an empty sequence")\n    return',
      ),
      observation: "The file /testbed/calc/ops.py has been edited.",
    },
    {
      thought: "Say what to pass instead.",
      action: replaceInOps(
        'ValueError("mean() of an empty sequence")',
        'ValueError("mean() of an empty sequence: pass at least one value")',
      ),
      observation: "The file /testbed/calc/ops.py has been edited.",
    },
  ],
};

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
      await page.waitForFunction(
        () => document.querySelector("[data-testid=live-log]")?.textContent?.includes("OPENSWE_EXIT_CODE="),
        null,
        { timeout: 240_000 },
      );
      expect(await log.textContent()).toMatch(/applying test patch/);

      await page.waitForFunction(
        () => document.querySelector("[data-testid=validation-verdict]")?.textContent?.includes("VALID"),
        null,
        { timeout: 60_000 },
      );
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
      // the run above stored them
      await baseFileStored(page, id, "calc/ops.py");
      await page.goto(appUrl(`/tasks/${id}`));
      await page.locator("#patches-section").scrollIntoViewIfNeeded(); // Monaco loads when the diff comes into view
      const patch = page.getByTestId("patch-fix-patch");
      // calc/ops.py is 13 lines; the fix adds 2
      await patch
        .getByTestId("whole-file-note")
        .filter({ hasText: "Whole file at the base commit (15 lines)" })
        .waitFor({ timeout: 60_000 });
      expect(await patch.getByTestId("reconstructed-note").count()).toBe(0);
      const diff = patch.getByTestId("monaco-diff").locator(".monaco-diff-editor");
      await diff.waitFor({ timeout: 60_000 });
      // line 1 is outside the hunk (@@ -10,4): lines 1-9 are folded until asked for
      await unfoldsTo(diff, "9 hidden lines", "def add(a, b):");
    } finally {
      await context.close();
    }
  });

  it("a trajectory's edit is a diff of the whole file with the earlier edit replayed: a line outside the edit shows once unfolded", async () => {
    const { page, context } = await signedInPage(browser, "curator");
    try {
      const id = await taskId("demo__calc-1");
      await baseFileStored(page, id, "calc/ops.py");
      await importThroughApi(context.request, "two-edits.traj", JSON.stringify(twoEditsTrajectory));
      await page.goto(appUrl(`/tasks/${id}`));
      await page.getByRole("link", { name: new RegExp(TWO_EDITS_AGENT) }).click();
      await page.waitForURL(/\/trajectories\//);

      await page.getByRole("listbox", { name: /Steps/ }).getByRole("option").filter({ hasText: "Step 3" }).click();
      const detail = page.getByTestId("step-detail");
      await detail.getByRole("heading", { name: "Step 3" }).waitFor();
      const edit = detail.getByTestId("edit-diff");
      await edit
        .getByTestId("whole-file-note")
        .filter({ hasText: "Whole file: the base commit with the 1 earlier edit of it replayed" })
        .waitFor({ timeout: 60_000 });
      const diff = edit.getByTestId("monaco-diff").locator(".monaco-diff-editor");
      await diff.waitFor({ timeout: 60_000 });
      // left, the file as step 2 left it; right, with this step's edit
      await diff
        .locator(".editor.original .view-line")
        .filter({ hasText: 'raise ValueError("mean() of an empty sequence")' })
        .waitFor();
      await diff
        .locator(".editor.modified .view-line")
        .filter({ hasText: 'raise ValueError("mean() of an empty sequence: pass at least one value")' })
        .waitFor();
      // the edit changed line 14 of 15; line 1 is among the folded ones
      await unfoldsTo(diff, "10 hidden lines", "def add(a, b):");
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
      await expect
        .poll(async () => (await row.getByRole("cell").allTextContents()).slice(0, 4))
        .toEqual(["demo-reviewer", "1", "0", "1"]);
    } finally {
      await context.close();
    }
  });
});
