import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { appUrl, launchBrowser, signedInPage } from "../helpers/browser";

// A curator's day in a real Chromium against the production build with the demo seed.

let browser: Awaited<ReturnType<typeof launchBrowser>>;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => browser?.cleanup());

const rowIds = (page: Page) => page.getByTestId("task-row").locator("a").allTextContents();

async function waitForRows(page: Page, expected: (ids: string[]) => boolean) {
  await expect.poll(async () => expected(await rowIds(page)), { timeout: 30_000 }).toBe(true);
}

describe("curating tasks in the browser", () => {
  it("filters by a facet and searches, with the state in the URL and the back button", async () => {
    const { context, page } = await signedInPage(browser, "curator");
    await page.goto(appUrl("/tasks"));
    await page.getByTestId("task-row").first().waitFor();

    await page.locator('[data-facet="source:DEMO"]').check();
    await page.waitForURL(/source=DEMO/);
    // the five calculator tasks and demo__calc-evidence, the evidence matrix's demo
    await waitForRows(page, (ids) => ids.length === 6 && ids.every((id) => id.startsWith("demo__calc-")));
    // the total comes with the page of rows; wait for it rather than read it once (other e2e files add thousands of tasks)
    await page
      .getByTestId("task-total")
      .filter({ hasText: /^6 tasks$/ })
      .waitFor();

    await page.getByLabel("Search instance ids and problem statements").fill("forced-exit");
    await page.waitForURL(/q=forced-exit/);
    await waitForRows(page, (ids) => ids.join() === "demo__calc-4");

    await page.goBack();
    await page.waitForURL((url) => !url.search.includes("q="));
    await waitForRows(page, (ids) => ids.length === 6);
    await expect(page.getByLabel("Search instance ids and problem statements").inputValue()).resolves.toBe("");
    await context.close();
  });

  it("opens a task, renders the Monaco diff, approves by keyboard and shows it in the history", async () => {
    const { context, page } = await signedInPage(browser, "curator");
    await page.goto(appUrl("/tasks?q=sympy"));
    await page.getByRole("link", { name: "sympy__sympy-13031" }).click();
    await page.waitForURL(/\/tasks\/[^/?]+$/);
    await page.getByTestId("problem-statement").getByText("hstack").first().waitFor();
    await page.locator("#patches-section").scrollIntoViewIfNeeded(); // Monaco loads when the diff comes into view
    const diff = page.getByTestId("monaco-diff").locator(".monaco-diff-editor");
    await diff.waitFor({ timeout: 60_000 });
    await expect(diff.locator(".view-line").count()).resolves.toBeGreaterThan(0);
    await page.getByTestId("reconstructed-note").waitFor();

    await page.locator("h1").click(); // focus the page, not a field
    await page.keyboard.press("?");
    await page.getByTestId("shortcut-help").getByText("Approve").waitFor();
    await page.keyboard.press("Escape");
    // no validation has judged this task: "a" chooses Approve and asks for the confirmation first
    await page.keyboard.press("a");
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.closest("[data-testid]")?.getAttribute("data-testid")))
      .toBe("confirm-unvalidated");
    await page.keyboard.press("Space");
    await page.getByTestId("submit-decision").focus();
    await page.keyboard.press("Enter");

    await page.getByTestId("history-action").filter({ hasText: "Decided" }).waitFor({ timeout: 30_000 });
    await page.getByTestId("decisions").getByText("APPROVE", { exact: true }).waitFor();
    await expect(page.getByTestId("task-version").textContent()).resolves.toBe("2");
    await context.close();
  });

  it("edits the eval script in Monaco and saves it as a new revision", async () => {
    const { context, page } = await signedInPage(browser, "curator");
    await page.goto(appUrl("/tasks/pydicom__pydicom-1458"));
    await page.getByRole("button", { name: /Edit recipe/ }).click();
    const editor = page.getByTestId("editor-eval-script").locator(".monaco-editor");
    await editor.waitFor({ timeout: 60_000 });
    await editor.click();
    await page.keyboard.press("Control+End");
    await page.keyboard.type("\n# e2e: stop at the first failure");
    await page.getByLabel(/Why this change/).fill("stop at the first failure");
    await page.getByTestId("save-revision").click();
    await page.getByTestId("revision-saved").getByText("Saved revision 2").waitFor({ timeout: 30_000 });
    await page.getByTestId("revision-number").getByText("Revision 2").waitFor({ timeout: 30_000 });
    await page.getByTestId("history-action").filter({ hasText: "Revised" }).waitFor();
    await context.close();
  });

  it("two curators edit the same task: the second sees a conflict naming the first, and keeps their input", async () => {
    const first = await signedInPage(browser, "curator");
    const second = await signedInPage(browser, "admin");
    for (const { page } of [first, second]) {
      await page.goto(appUrl("/tasks/django__django-15781"));
      await page.getByTestId("edit-task-fields").click();
    }
    await first.page.getByTestId("labels-input").fill("checked-by-first");
    await first.page.getByTestId("save-task-fields").click();
    await first.page.getByTestId("edit-task-fields").waitFor();

    await second.page.getByTestId("labels-input").fill("checked-by-second");
    await second.page.getByTestId("save-task-fields").click();
    const conflict = second.page.getByTestId("conflict");
    await conflict.waitFor({ timeout: 30_000 });
    await expect(conflict.textContent()).resolves.toMatch(/Demo Curator saved version \d+; you had version \d+/);
    await expect(conflict.textContent()).resolves.toContain("checked-by-first");
    await expect(second.page.getByTestId("labels-input").inputValue()).resolves.toBe("checked-by-second");

    // applying on top of the latest version saves the second curator's labels
    await conflict.getByRole("button", { name: /apply it on top/ }).click();
    await second.page.getByTestId("edit-task-fields").waitFor({ timeout: 30_000 });
    await second.page.getByText("checked-by-second", { exact: true }).first().waitFor();
    await first.context.close();
    await second.context.close();
  });
});
