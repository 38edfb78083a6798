import { describe, expect, it } from "vitest";
import { appUrl, browserForFile, signedInPage } from "../helpers/browser";
import { importThroughApi } from "../helpers/e2e-import";

// Issue 30: a rate over one item says so. One task in a repository of its own makes every
// rate of the funnel split to that repository a rate over n = 1: the table shows its count and
// its 95 % Wilson interval, the chart its count beside the bar, and no analytics page names a
// group or a bar "undefined" or "null".

const REPOSITORY = "e2e-rates/one-task";
const ROW = {
  instance_id: "e2e-rates__one-task-1",
  repo: REPOSITORY,
  base_commit: "one-task",
  problem_statement: "one task, so every rate of its repository is over n = 1",
  patch: "",
  test_patch: "",
  FAIL_TO_PASS: [],
  PASS_TO_PASS: [],
  install_config: { python: "3.9" },
};
const ANALYTICS_PAGES = [
  "/analytics",
  "/analytics/funnel",
  "/analytics/funnel?by=repository",
  "/analytics/reviewers",
  "/analytics/reviewers?by=reviewer,generator,difficulty,repository",
  "/analytics/generated-tests",
  "/analytics/verifiability",
  "/reviewers",
  "/agreement",
];
const UNDEFINED_WORD = /\b(undefined|null|NaN)\b/;

describe("rates with their count and interval", () => {
  const chromium = browserForFile();

  it("a rate over one task shows '1 of 1' and its interval in the table and its count in the chart", async () => {
    const { page, context } = await signedInPage(chromium.browser, "curator");
    try {
      await importThroughApi(context.request, "swe-rebench-one-task.json", JSON.stringify([ROW]));
      await page.goto(appUrl(`/analytics/funnel?by=repository&repository=${encodeURIComponent(REPOSITORY)}`));
      // a body row: the header row's "Of imported" would match "Imported" too
      const imported = page.getByTestId("funnel-table").locator("tbody tr").filter({ hasText: "Imported" }).first();
      await imported.waitFor({ timeout: 30_000 });
      // the group is the row's header cell, the rest its data cells
      const cells = await imported.locator("th, td").allTextContents();
      expect(cells[0]).toBe(REPOSITORY);
      expect(cells[3]).toBe("100.0 % (1 of 1; 95 % CI 21–100 %)");
      // the chart prints each count beside its bar; a rate chart elsewhere prints "100 % (1/1)"
      await expect
        .poll(async () =>
          (await page.getByTestId("funnel-chart").locator(".recharts-label-list").allTextContents()).join(" "),
        )
        .toContain("1");

      // the API carries the same n and interval
      const api = await context.request.get(
        appUrl(`/api/v1/analytics/funnel?by=repository&repository=${encodeURIComponent(REPOSITORY)}`),
      );
      const body = (await api.json()) as { stages: { rows: Record<string, unknown>[] } };
      expect(body.stages.rows[0]).toMatchObject({
        stage: "Imported",
        ofImported: 1,
        ofImported_successes: 1,
        ofImported_n: 1,
        ofImported_high: 1,
      });
      expect(body.stages.rows[0].ofImported_low).toBeCloseTo(0.2065, 4);
    } finally {
      await context.close();
    }
  });

  it("no analytics page, table or chart says undefined or null", async () => {
    const { page, context } = await signedInPage(chromium.browser, "viewer");
    try {
      for (const path of ANALYTICS_PAGES) {
        await page.goto(appUrl(path));
        await page.locator("main").waitFor();
        await expect
          .poll(async () => page.locator("main").innerText(), { timeout: 30_000 })
          .not.toMatch(/Computing|Scoring|Loading/);
        const shown = `${await page.locator("main").innerText()} ${(await page.locator("main svg text").allTextContents()).join(" ")}`;
        expect(shown.match(UNDEFINED_WORD), `${path} says ${shown.match(UNDEFINED_WORD)?.[0]}`).toBeNull();
        // every rate cell reads "x % (k of n; 95 % CI …)" or "— (0 of n)"
        for (const cell of await page.locator("td").allTextContents()) {
          if (cell.includes(" of ") && cell.includes("%"))
            expect(cell).toMatch(/^\d+\.\d % \(\d+ of \d+; 95 % CI \d+–\d+ %\)$/);
        }
      }
    } finally {
      await context.close();
    }
  });
});
