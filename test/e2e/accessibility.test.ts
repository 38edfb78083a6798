import AxeBuilder from "@axe-core/playwright";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inject } from "vitest";
import { launchBrowser, signedInPage } from "../helpers/browser";
import { loadEveryEditor, openTourPage, SIGNED_OUT_TOUR, signedInTour, tourIds, type TourPage } from "../helpers/page-tour";

// axe-core (WCAG 2.1 A and AA rules) on every page type, signed in and out, in Chromium
// against the production build; a serious or critical violation fails the test.

const WCAG_21_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];

let browser: Awaited<ReturnType<typeof launchBrowser>>;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => browser?.cleanup());

/** Each serious or critical violation as one readable line: rule, impact, where. */
async function seriousViolations(page: Page, tourPage: TourPage): Promise<string[]> {
  await openTourPage(page, tourPage);
  await loadEveryEditor(page);
  const results = await new AxeBuilder({ page }).withTags(WCAG_21_AA).analyze();
  return results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .flatMap((v) => v.nodes.map((node) => `${tourPage.name} (${tourPage.path}): ${v.id} [${v.impact}] ${v.help} — at ${node.target.join(" ")} (${node.html})`));
}

describe("accessibility (axe, WCAG 2.1 A/AA)", () => {
  it("every signed-in page type has no serious or critical violation", async () => {
    const { context, page } = await signedInPage(browser, "admin");
    const tour = signedInTour(await tourIds(page));
    const found: string[] = [];
    for (const tourPage of tour) found.push(...(await seriousViolations(page, tourPage)));
    expect(found).toEqual([]);
    await context.close();
  });

  it("every signed-out page type has no serious or critical violation", async () => {
    const context = await browser.newContext({ baseURL: inject("appUrl") });
    const page = await context.newPage();
    const found: string[] = [];
    for (const tourPage of SIGNED_OUT_TOUR) found.push(...(await seriousViolations(page, tourPage)));
    expect(found).toEqual([]);
    await context.close();
  });

  it("a rule violation on a page is caught (the check is live)", async () => {
    const context = await browser.newContext({ baseURL: inject("appUrl") });
    const page = await context.newPage();
    await openTourPage(page, SIGNED_OUT_TOUR[0]);
    // after hydration, which would otherwise drop a node React did not render from <main>
    await page.waitForLoadState("networkidle");
    // a button with no name, as a careless change would add (in <body>, where React 19 leaves foreign nodes alone)
    await page.evaluate(() => document.body.append(Object.assign(document.createElement("button"), { id: "nameless" })));
    await page.locator("#nameless").waitFor({ state: "attached" });
    const results = await new AxeBuilder({ page }).withTags(WCAG_21_AA).analyze();
    expect(results.violations.map((v) => v.id)).toContain("button-name");
    await context.close();
  });
});
