import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Page } from "playwright-core";
import { afterAll, describe, expect, it } from "vitest";
import { appUrl, browserForFile, signedInPage } from "../helpers/browser";

// A curator's day in Chromium, with the keyboard where the day is keyboard work: two files
// imported at once through the picker (each with its own result), a task reviewed with keys
// only while the queue says how much is left, a bulk action that says its count before it
// happens, a release export that leaves the approved-but-never-validated task out and says
// so, a misclicked decision undone (and the history says so), analytics, and a wrong address
// that lands on a page with a way on. The day's own tasks come from its import: other e2e
// files share the server and its demo data, so nothing here leans on a demo task untouched.

const chromium = browserForFile();
const day = `e2e__day${Date.now().toString(36)}`;
const dir = mkdtempSync(path.join(tmpdir(), "e2e-day-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** SWE-bench instances of the day's own repository, as a JSONL file. */
function instancesFile(name: string, suffixes: string[]): string {
  const rows = suffixes.map((suffix, i) =>
    JSON.stringify({
      instance_id: `${day}-${suffix}`,
      repo: "e2e/day",
      base_commit: `da7${i}`,
      problem_statement: `The day's task ${suffix}: the parser drops the last field of a quoted line.`,
      patch: `diff --git a/src/p.py b/src/p.py\n--- a/src/p.py\n+++ b/src/p.py\n@@ -1 +1 @@\n-return a\n+return b\n`,
      test_patch:
        "diff --git a/tests/test_p.py b/tests/test_p.py\n--- a/tests/test_p.py\n+++ b/tests/test_p.py\n@@ -1 +1,2 @@\n x\n+y\n",
      FAIL_TO_PASS: JSON.stringify([`tests/test_p.py::test_${suffix}`]),
      PASS_TO_PASS: "[]",
    }),
  );
  const file = path.join(dir, name);
  writeFileSync(file, rows.join("\n") + "\n");
  return file;
}

/** Tab until the element with this test id has focus (keyboard only), with a bound on the presses. */
async function tabTo(page: Page, testId: string) {
  for (let presses = 0; presses < 40; presses++) {
    if (await page.evaluate((id) => document.activeElement?.getAttribute("data-testid") === id, testId)) return;
    await page.keyboard.press("Tab");
  }
  throw new Error(`Tab never reached ${testId}`);
}

describe("a curator's day", () => {
  it("imports two files at once through the picker; each file gets its own progress and result", async () => {
    const { context, page } = await signedInPage(chromium.browser, "curator");
    await page.goto(appUrl("/imports"));
    const files = [instancesFile(`${day}-a.jsonl`, ["approved", "kept"]), instancesFile(`${day}-b.jsonl`, ["other"])];
    await page.getByLabel(/Drop files here, or choose them/).setInputFiles(files);
    const rows = page.getByTestId("upload-row");
    await rows
      .filter({ hasText: `${day}-a.jsonl` })
      .getByTestId("upload-outcome")
      .filter({ hasText: "Imported: 2 created" })
      .waitFor({ timeout: 120_000 });
    await rows
      .filter({ hasText: `${day}-b.jsonl` })
      .getByTestId("upload-outcome")
      .filter({ hasText: "Imported: 1 created" })
      .waitFor({ timeout: 120_000 });
    await expect(rows.count()).resolves.toBe(2);
    await context.close();
  });

  it("reviews a task with keys only: the queue says 1 of 1 left, a approves, and then 0 of 1 left", async () => {
    const { context, page } = await signedInPage(chromium.browser, "curator");
    await page.goto(appUrl(`/review?q=${day}-approved`));
    await page
      .getByTestId("queue-left")
      .filter({ hasText: /^1 of 1 left$/ })
      .waitFor();
    await page.keyboard.press("j");
    await page
      .getByTestId("instance-id")
      .filter({ hasText: `${day}-approved` })
      .waitFor();
    await page.keyboard.press("a");
    // never validated: the form asks for the confirmation first and puts the focus on it
    await page.getByTestId("confirm-unvalidated").getByRole("checkbox").and(page.locator(":focus")).waitFor();
    await page.keyboard.press("Space");
    await tabTo(page, "submit-decision");
    await page.keyboard.press("Enter");
    await page
      .getByTestId("queue-last-decision")
      .filter({ hasText: `on ${day}-approved` })
      .waitFor();
    await page
      .getByTestId("queue-left")
      .filter({ hasText: /^0 of 1 left$/ })
      .waitFor();
    await context.close();
  });

  it("a bulk action on the list says how many tasks and runs before it happens", async () => {
    const { context, page } = await signedInPage(chromium.browser, "curator");
    await page.goto(appUrl(`/tasks?q=${day}`));
    await page.getByRole("checkbox", { name: `Select ${day}-kept` }).check();
    await page.getByRole("checkbox", { name: `Select ${day}-other` }).check();
    const bulk = page.getByRole("region", { name: "Bulk actions" });
    await bulk.getByRole("button", { name: "Validate…" }).click();
    const confirmation = bulk.getByRole("group", { name: "Confirm bulk validation" });
    await confirmation.getByText("Validate 2 tasks? This queues 4 runs (both controls of each).").waitFor();
    await confirmation.getByRole("button", { name: "Cancel" }).click();
    await bulk.getByRole("button", { name: "Validate…" }).waitFor();
    await context.close();
  });

  it("a release export is validated only: the approved, never validated task is left out, and the export says so", async () => {
    const { context, page } = await signedInPage(chromium.browser, "curator");
    await page.goto(appUrl("/imports"));
    const panel = page.getByRole("region", { name: "Export" });
    await expect(panel.getByRole("checkbox", { name: /Validated only/ }).isChecked()).resolves.toBe(true);
    const report = panel.getByTestId("export-report");
    await report.filter({ hasText: /\d+ tasks? excluded: .*never validated/ }).waitFor();
    const download = page.waitForEvent("download");
    await panel.getByRole("link", { name: "Download JSONL" }).click();
    await (await download).path();
    await report.filter({ hasText: /^Download started: / }).waitFor();
    // the day's own approved tasks, exported as the panel's link does
    const query = encodeURIComponent(`status=APPROVED&q=${day}`);
    const exported = await page.request.get(appUrl(`/api/v1/exports?query=${query}`));
    expect(exported.status()).toBe(200);
    expect(await exported.text()).not.toContain(`${day}-approved`);
    expect(decodeURIComponent(exported.headers()["x-export-excluded"])).toBe("1 task excluded: 1 never validated");
    const all = await page.request.get(appUrl(`/api/v1/exports?validatedOnly=false&query=${query}`));
    expect(await all.text()).toContain(`${day}-approved`);
    await context.close();
  });

  it("opens analytics", async () => {
    const { context, page } = await signedInPage(chromium.browser, "curator");
    await page.goto(appUrl("/analytics"));
    await page.getByRole("heading", { level: 1, name: "Analytics" }).waitFor();
    await context.close();
  });

  it("the review queue says how much is left and takes keys at once: j, without a click, opens the first task", async () => {
    const { context, page } = await signedInPage(chromium.browser, "curator");
    await page.goto(appUrl("/review"));
    await page
      .getByTestId("queue-left")
      .filter({ hasText: /^\d+ of \d+ left$/ })
      .waitFor();
    await page.keyboard.press("j");
    await page.getByTestId("instance-id").waitFor();
    await context.close();
  });

  it("in the queue, deciding moves on at once, and the queue offers to undo that decision, which returns to its task", async () => {
    const { context, page } = await signedInPage(chromium.browser, "curator");
    // a queue of one task outside the demo campaign (whose blind tasks keep the decision from an annotator)
    await page.goto(appUrl("/review?q=django__django-15781"));
    await page
      .getByTestId("queue-left")
      .filter({ hasText: /^1 of 1 left$/ })
      .waitFor();
    await page.keyboard.press("j");
    const decided = (await page.getByTestId("instance-id").textContent())!.trim();
    const form = page.getByTestId("decision-form");
    await form.getByLabel("Needs changes").check();
    await form.getByLabel("Other", { exact: true }).check();
    await form.getByLabel("Comment").fill("e2e: a misclick to undo");
    const confirm = form.getByTestId("confirm-unvalidated").getByRole("checkbox");
    if (await confirm.count()) await confirm.check();
    await form.getByTestId("submit-decision").click();
    const notice = page.getByTestId("queue-last-decision");
    await notice.filter({ hasText: `on ${decided}` }).waitFor();
    await notice.getByRole("button", { name: "Undo my needs changes" }).click();
    await notice.waitFor({ state: "detached" });
    await page.getByTestId("instance-id").filter({ hasText: decided }).waitFor();
    await page.getByTestId("decision-form").waitFor();
    await context.close();
  });

  it("a misclicked approval is undone from the task page; the task is undecided again and its history says so", async () => {
    const { context, page } = await signedInPage(chromium.browser, "curator");
    await page.goto(appUrl("/tasks/django__django-15781"));
    const form = page.getByTestId("decision-form");
    await form.getByLabel("Approve").check();
    const confirm = form.getByTestId("confirm-unvalidated").getByRole("checkbox");
    if (await confirm.count()) await confirm.check();
    await form.getByTestId("submit-decision").click();
    await page.getByTestId("decision-recorded").waitFor();
    await page.getByTestId("decisions").getByText("APPROVE", { exact: true }).waitFor();
    await page.getByRole("button", { name: "Undo my approve" }).click();
    await page.getByText("No curator has decided yet.").waitFor();
    await page
      .getByTestId("history-action")
      .filter({ hasText: /decision undone/i })
      .first()
      .waitFor();
    await context.close();
  });

  it("a wrong address shows the navigation, a task search and a way back", async () => {
    const { context, page } = await signedInPage(chromium.browser, "curator");
    await page.goto(appUrl("/tasks"));
    await page.goto(appUrl("/no-such-page"));
    await page.getByRole("heading", { name: "Page not found" }).waitFor();
    await expect(page.getByRole("navigation").count()).resolves.toBeGreaterThan(0);
    await page.getByRole("button", { name: "Go back" }).click();
    await page.waitForURL((url) => url.pathname === "/tasks");
    await page.goto(appUrl("/no-such-page"));
    await page.getByRole("searchbox", { name: /Search tasks/ }).fill("demo__calc-1");
    await page.getByRole("button", { name: "Search" }).click();
    await page.waitForURL(/\/tasks\?q=demo__calc-1/);
    await page.getByRole("link", { name: "demo__calc-1", exact: true }).waitFor();
    await context.close();
  });
});
