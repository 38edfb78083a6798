import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { appUrl, launchBrowser, signedInPage } from "../helpers/browser";

// The task page as a first-time curator meets it, and the keyboard paths of the dashboard,
// in Chromium against the production build with the demo seed. demo__calc-3 and -5 are
// used by no other e2e file, so they are still unvalidated and undecided here.

let browser: Awaited<ReturnType<typeof launchBrowser>>;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => browser?.cleanup());

const focusedTestId = (page: Page) =>
  page.evaluate(
    () =>
      document.activeElement?.closest("[data-testid]")?.getAttribute("data-testid") ?? document.activeElement?.tagName,
  );

describe("the task page leads from evidence to a decision", () => {
  it("an unvalidated task: evidence first, Validate as the one primary action, no verdict chosen, no override form", async () => {
    const { context, page } = await signedInPage(browser, "curator");
    await page.goto(appUrl("/tasks/demo__calc-5"));
    // the first HTML already carries the task (server-rendered), before any client fetch
    const html = await (await page.request.get(appUrl("/tasks/demo__calc-5"))).text();
    expect(html).toContain('data-testid="problem-statement"');

    const nextStep = page.getByTestId("next-step");
    await expect(nextStep.getAttribute("data-stage")).resolves.toBe("unvalidated");
    await expect(nextStep.getByTestId("next-step-action").textContent()).resolves.toBe("Validate");
    await expect(page.locator('button[data-variant="primary"]:visible').count()).resolves.toBe(1);

    // the order a curator works in: the issue, then the patches, then validation, then the decision
    const headings = await page.locator("article h2").allTextContents();
    const order = ["The issue and its tests", "Patches", "Validation", "Decision"].map((title) =>
      headings.findIndex((h) => h.includes(title)),
    );
    expect(order.every((index, i) => index >= 0 && (i === 0 || index > order[i - 1]))).toBe(true);

    await expect(page.getByTestId("decision-form").locator('input[name="verdict"]:checked').count()).resolves.toBe(0);
    await expect(page.getByRole("form", { name: "Override the automated verdict" }).count()).resolves.toBe(0);

    // FAIL_TO_PASS explains itself on keyboard focus
    await page.locator("#problem-section").getByText("FAIL_TO_PASS", { exact: true }).first().focus();
    await page
      .getByRole("tooltip")
      .filter({ hasText: "must pass once the fix patch is applied" })
      .first()
      .waitFor({ state: "visible" });
    await context.close();
  });

  it("deciding a never-validated task needs an explicit confirmation, and the history records it", async () => {
    const { context, page } = await signedInPage(browser, "curator");
    await page.goto(appUrl("/tasks/demo__calc-3"));
    const form = page.getByTestId("decision-form");
    await form.getByLabel("Approve").check();
    await page.getByTestId("submit-decision").click();
    await form.getByRole("alert").filter({ hasText: "No validation has judged this task" }).waitFor();
    await expect(page.getByTestId("decisions").locator("li").count()).resolves.toBe(0);

    await page.getByTestId("confirm-unvalidated").getByRole("checkbox").check();
    await page.getByTestId("submit-decision").click();
    await page.getByTestId("decisions").getByText("APPROVE", { exact: true }).waitFor({ timeout: 30_000 });
    await page.getByTestId("task-history").getByText("withoutValidation: true").waitFor({ timeout: 30_000 });
    await expect(page.getByTestId("task-history").textContent()).resolves.toContain("confirmedWithoutValidation: true");
    await context.close();
  });

  it("Monaco loads only when an editor scrolls into view, and the diff sides carry labels", async () => {
    const { context, page } = await signedInPage(browser, "curator");
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.goto(appUrl("/tasks/demo__calc-5"));
    await page.getByTestId("problem-statement").waitFor();
    // the recipe is far below the fold: once the page has settled, its editor is still not built
    await page.waitForLoadState("networkidle");
    await expect(page.getByTestId("editor-eval-script").count()).resolves.toBe(0);
    await page.getByTestId("recipe-editor").scrollIntoViewIfNeeded();
    await page.getByTestId("editor-eval-script").locator(".monaco-editor").waitFor({ timeout: 60_000 });

    await page.getByTestId("monaco-diff").scrollIntoViewIfNeeded();
    const diff = page.getByTestId("monaco-diff").locator(".monaco-diff-editor");
    await diff.waitFor({ timeout: 60_000 });
    // each side's text input has its side's accessible name, as a screen reader announces it
    await diff.getByRole("textbox", { name: /before the patch/ }).waitFor({ state: "attached" });
    await diff.getByRole("textbox", { name: /after the patch/ }).waitFor({ state: "attached" });
    await context.close();
  });
});

describe("keyboard paths", () => {
  it("the skip link is the first Tab stop and reaches the first task row in two keys", async () => {
    const { context, page } = await signedInPage(browser, "viewer");
    await page.goto(appUrl("/tasks"));
    await page.getByTestId("task-row").first().waitFor();
    await page.keyboard.press("Tab");
    await expect(page.evaluate(() => document.activeElement?.textContent)).resolves.toBe("Skip to main content");
    await page.keyboard.press("Enter");
    const focused = await page.evaluate(() => ({
      row: !!document.activeElement?.closest('[data-testid="task-row"]'),
      index: document.activeElement?.closest("[role=row]")?.getAttribute("aria-rowindex"),
    }));
    expect(focused).toEqual({ row: true, index: "1" });
    await context.close();
  });

  it("focus returns where it was after the shortcut dialog closes", async () => {
    const { context, page } = await signedInPage(browser, "curator");
    await page.goto(appUrl("/tasks/demo__calc-5"));
    const keysButton = page.getByRole("button", { name: "Keyboard shortcuts" });
    // the button is in the server's HTML before the page's script answers it: press again until it does
    for (let tries = 0; ; tries++) {
      await keysButton.focus();
      await page.keyboard.press("Enter");
      const opened = await page
        .getByTestId("shortcut-help")
        .waitFor({ timeout: 2_000 })
        .then(
          () => true,
          () => false,
        );
      if (opened) break;
      if (tries === 15) throw new Error("the shortcut dialog never opened from its button");
    }
    await page.keyboard.press("Escape");
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute("aria-label")))
      .toBe("Keyboard shortcuts");

    // opened by its key with nothing focused, it hands focus to the main region rather than the body
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press("?");
    await page.getByTestId("shortcut-help").waitFor();
    await page.keyboard.press("Escape");
    await expect.poll(() => focusedTestId(page)).not.toBe("BODY");
    await context.close();
  });
});
