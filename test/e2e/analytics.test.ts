import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { appUrl, launchBrowser, signedInPage } from "../helpers/browser";

// A viewer opens every analytics page, changes a filter, clicks a bar and lands on the task
// list filtered to exactly the tasks the bar counted.

async function tableCell(page: Page, testId: string, rowText: string, column: number): Promise<string> {
  // a body row with a cell saying exactly rowText (the header's "Of imported" must not match "Imported")
  const table = page.getByTestId(testId);
  // (a `has` locator is looked up inside each row, so it starts from the page)
  const row = table
    .getByRole("row")
    .filter({ has: page.getByRole("cell", { name: rowText, exact: true }) })
    .first();
  await row.waitFor();
  return (await row.getByRole("cell").nth(column).textContent()) ?? "";
}

async function taskTotal(page: Page): Promise<string> {
  const total = page.getByTestId("task-total");
  await expect.poll(async () => (await total.textContent()) ?? "", { timeout: 30_000 }).toMatch(/^\d[\d,]* tasks?$/);
  return (await total.textContent())!.replace(/ tasks?$/, "");
}

describe("analytics in the browser", () => {
  let browser: Browser & { cleanup(): Promise<void> };
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.cleanup();
  });

  it("filters the funnel, clicks a bar and lands on exactly its tasks; every page draws its figures", async () => {
    const { page, context } = await signedInPage(browser, "viewer");
    try {
      await page.goto(appUrl("/analytics/funnel"));
      await page.getByTestId("funnel-table").waitFor();
      await page.locator('select[name="source"]').selectOption("SWE_FLOW");
      await page.waitForURL(/source=SWE_FLOW/);
      // say what the page shows when the figures do not come (the failure message alone says only "timeout")
      await page
        .getByTestId("funnel-table")
        .getByRole("cell", { name: "Imported", exact: true })
        .first()
        .waitFor({ timeout: 30_000 })
        .catch(async (error) => {
          throw new Error(`${error}\n--- the page shows:\n${(await page.locator("main").innerText()).slice(0, 3000)}`);
        });
      await expect.poll(() => tableCell(page, "funnel-table", "Imported", 0)).toBe("all tasks");
      await expect
        .poll(async () => (await page.getByTestId("funnel-table").getByRole("row").allTextContents()).join())
        .not.toContain("Computing");
      const imported = await tableCell(page, "funnel-table", "Imported", 2);
      expect(Number(imported.replace(/,/g, ""))).toBeGreaterThanOrEqual(2); // the demo's two test-driven steps at least

      // the first bar is "Imported"; recharts draws it as a path inside the bar's group
      await page.getByTestId("funnel-chart").locator(".recharts-bar-rectangle path").first().click();
      await page.waitForURL(/\/tasks\?slice=/);
      expect(decodeURIComponent(new URL(page.url()).searchParams.get("slice") ?? "")).toBe(
        "funnel;source=SWE_FLOW;stage=imported",
      );
      await page.getByTestId("slice-chip").waitFor();
      expect(await taskTotal(page)).toBe(imported);
      await expect
        .poll(async () => (await page.getByTestId("task-row").allTextContents()).join())
        .toContain("demo-flow__calc-mode");

      await page.goto(appUrl("/analytics/reviewers"));
      await page.getByTestId("reviewer-table").getByRole("row").filter({ hasText: "demo-skimming-reviewer" }).waitFor();
      await page.getByTestId("calibration-chart").waitFor();
      await page.locator('select[name="by"]').selectOption("reviewer,generator");
      await page.waitForURL(/by=reviewer%2Cgenerator|by=reviewer,generator/);
      await page
        .getByTestId("reviewer-table")
        .getByRole("row")
        .filter({ hasText: "demo-none-agent" })
        .first()
        .waitFor();

      await page.goto(appUrl("/analytics/generated-tests"));
      const tests = await tableCell(page, "generated-tests-table", "demo-test-writer", 1);
      expect(tests).toBe("2");
      await page
        .getByTestId("generated-tests-table")
        .getByRole("row")
        .filter({ hasText: "demo-test-writer" })
        .getByRole("link")
        .first()
        .click();
      await page.waitForURL(/\/tasks\?slice=generated-tests/);
      expect(await taskTotal(page)).toBe("2");

      await page.goto(appUrl("/analytics/verifiability"));
      await expect.poll(() => tableCell(page, "verifiability-table", "swe-curator-demo/calc", 1)).toBe("2");
      await page.getByTestId("verifiability-chart").waitFor();
      const csv = await page
        .getByTestId("export-links")
        .getByRole("link", { name: "Projects (CSV)" })
        .getAttribute("href");
      const response = await page.request.get(appUrl(csv!));
      expect(response.headers()["content-type"]).toContain("text/csv");
      const share = [
        "Verifiable share",
        ...["successes", "n", "95 % CI low", "95 % CI high"].map((part) => `Verifiable share (${part})`),
      ];
      expect((await response.text()).split("\r\n")[0]).toBe(
        [
          "Project",
          "Steps",
          "Verifiable",
          "Not verifiable",
          ...share,
          "Missing dependency",
          "Semantic mismatch",
          "Not run yet",
        ].join(","),
      );
    } finally {
      await context.close();
    }
  });
});
