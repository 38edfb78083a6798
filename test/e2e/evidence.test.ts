import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appUrl, launchBrowser, signedInPage } from "../helpers/browser";

// The task page's evidence per test, in Chromium against the production build with the demo
// seed: demo__calc-evidence's stored runs hold a flip after a recipe change and a flaky one.

let browser: Awaited<ReturnType<typeof launchBrowser>>;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => browser?.cleanup());

describe("evidence per test on the task page", () => {
  it("shows the matrix, says why each test flipped, and opens a run's log at the deciding line by keyboard", async () => {
    const { context, page } = await signedInPage(browser, "curator");
    await page.goto(appUrl("/tasks/demo__calc-evidence"));
    const section = page.locator("#evidence-section");
    const matrix = section.getByRole("table", { name: /Each test of the task against every run/ });
    await matrix.waitFor();

    // every run a column with what it depended on; the oldest recorded none of it
    await expect(matrix.getByRole("rowheader", { name: "Recipe" }).count()).resolves.toBe(1);
    await expect(matrix.getByText("not recorded").count()).resolves.toBeGreaterThan(0);
    await expect(matrix.getByRole("rowheader", { name: /test_strict_mode_is_off/ }).count()).resolves.toBe(1);

    const recipe = section
      .locator('[data-testid="flip"][data-cause="changed"]')
      .filter({ hasText: "test_strict_mode_is_off" });
    await expect(recipe.count()).resolves.toBe(2);
    await expect(recipe.first().textContent()).resolves.toContain("Recipe changed");
    const flaky = section
      .locator('[data-testid="flip"][data-cause="flaky"]')
      .filter({ hasText: "test_mean_is_stable" });
    await expect(flaky.count()).resolves.toBeGreaterThan(0);
    await expect(flaky.first().textContent()).resolves.toContain("Flaky: same recipe, image, host and parser");

    // the flip's "After" link, reached and followed by keyboard, opens that run's log at the line that decided the test
    const after = recipe.first().getByRole("link", { name: /^After: run \d+ FAILED, line \d+$/ });
    const href = (await after.getAttribute("href"))!;
    const [, runId, line] = /^\/runs\/([^/]+)\/log\?line=(\d+)#L\2$/.exec(href)!;
    await after.focus();
    await page.keyboard.press("Enter");
    await page.waitForURL((url) => url.pathname === `/runs/${runId}/log` && url.hash === `#L${line}`);
    await page
      .getByTestId("log-line")
      .filter({ hasText: `Showing line ${line}` })
      .waitFor();
    const run = (await (await page.request.get(appUrl(`/api/v1/runs/${runId}`))).json()) as { log: string };
    expect(run.log.split("\n")[Number(line) - 1]).toContain("test_strict_mode_is_off");

    // the server's HTML alone already shows the log at that line, marked: no waiting for the page's scripts
    const noScript = await browser.newContext({ javaScriptEnabled: false });
    await noScript.addCookies(await context.cookies());
    const plain = await noScript.newPage();
    await plain.goto(appUrl(href));
    await expect(plain.getByTestId("log-line").textContent()).resolves.toBe(`Showing line ${line}`);
    const marked = plain.locator(`mark#L${line}`);
    await expect(marked.textContent()).resolves.toContain("test_strict_mode_is_off");
    await noScript.close();
    await context.close();
  });
});
