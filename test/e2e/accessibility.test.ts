import AxeBuilder from "@axe-core/playwright";
import type { APIRequestContext, Page } from "playwright-core";
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inject } from "vitest";
import { appUrl, browserForFile, signedInPage } from "../helpers/browser";
import { signInThroughForm } from "../helpers/chromium";
import {
  loadEveryEditor,
  openTourPage,
  SIGNED_IN_PAGE_NAMES,
  SIGNED_OUT_TOUR,
  signedInTour,
  tourIds,
  type TourPage,
} from "../helpers/page-tour";

// axe-core (WCAG 2.1 A and AA rules) on every page type, signed in and out, in Chromium
// against the production build; a serious or critical violation fails the test.

const WCAG_21_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];

const chromium = browserForFile();

/** Each serious or critical violation as one readable line: rule, impact, where. */
async function seriousViolations(page: Page, tourPage: TourPage): Promise<string[]> {
  await openTourPage(page, tourPage);
  await loadEveryEditor(page);
  const results = await new AxeBuilder({ page }).withTags(WCAG_21_AA).analyze();
  return results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .flatMap((v) =>
      v.nodes.map(
        (node) =>
          `${tourPage.name} (${tourPage.path}): ${v.id} [${v.impact}] ${v.help} — at ${node.target.join(" ")} (${node.html})`,
      ),
    );
}

/** A fresh curator, and a campaign of two demo tasks that only they label: the API calls the admin's pages make. */
async function createAnnotatorWithCampaign(request: APIRequestContext) {
  const suffix = randomBytes(4).toString("hex");
  const email = `axe-annotator-${suffix}@swe-curator.local`;
  const password = `Axe-${randomBytes(12).toString("hex")}`;
  const headers = { origin: new URL(appUrl()).origin };
  const user = await request.post(appUrl("/api/v1/users"), {
    headers,
    data: { email, name: `Axe annotator ${suffix}`, role: "CURATOR", password },
  });
  if (user.status() !== 201) throw new Error(`creating the annotator answered ${user.status()}: ${await user.text()}`);
  const { id } = (await user.json()) as { id: string };
  const campaign = await request.post(appUrl("/api/v1/campaigns"), {
    headers,
    data: { name: `axe annotator ${suffix}`, viewQuery: "q=demo__calc-4", annotatorIds: [id], overlap: 1 },
  });
  if (campaign.status() !== 201)
    throw new Error(`creating the campaign answered ${campaign.status()}: ${await campaign.text()}`);
  return { email, password, campaignId: ((await campaign.json()) as { id: string }).id };
}

describe("accessibility (axe, WCAG 2.1 A/AA)", () => {
  // a test per page type: each has its own time (the whole tour took near the limit of one test on a
  // busy machine), and a failure names its page
  describe("every signed-in page type has no serious or critical violation", () => {
    let admin: Awaited<ReturnType<typeof signedInPage>> | undefined;
    let tour: TourPage[] = [];
    beforeAll(async () => {
      admin = await signedInPage(chromium.browser, "admin");
      tour = signedInTour(await tourIds(admin.page));
    });
    afterAll(async () => {
      await admin?.context.close();
    });

    it.each(SIGNED_IN_PAGE_NAMES)("%s", async (name) => {
      const tourPage = tour.find((candidate) => candidate.name === name);
      if (!admin || !tourPage) throw new Error(`the signed-in tour has no page "${name}"`);
      expect(await seriousViolations(admin.page, tourPage)).toEqual([]);
    });
  });

  it("a campaign annotator's page, with the item's issue and patches, has no serious or critical violation", async () => {
    // its own annotator and campaign, so no other test's labels can use up the items it is served
    const admin = await signedInPage(chromium.browser, "admin");
    const annotator = await createAnnotatorWithCampaign(admin.context.request);
    await admin.context.close();
    const context = await chromium.browser.newContext({ baseURL: inject("appUrl") });
    const page = await context.newPage();
    await signInThroughForm(page, inject("appUrl"), annotator);
    const annotate: TourPage = {
      name: "annotating an item",
      path: `/campaigns/${annotator.campaignId}/annotate`,
      ready: `!!document.querySelector('[data-testid="annotate-problem"]')`,
    };
    expect(await seriousViolations(page, annotate)).toEqual([]);
    await context.close();
  });

  it("every signed-out page type has no serious or critical violation", async () => {
    const context = await chromium.browser.newContext({ baseURL: inject("appUrl") });
    const page = await context.newPage();
    const found: string[] = [];
    for (const tourPage of SIGNED_OUT_TOUR) found.push(...(await seriousViolations(page, tourPage)));
    expect(found).toEqual([]);
    await context.close();
  });

  it("a rule violation on a page is caught (the check is live)", async () => {
    const context = await chromium.browser.newContext({ baseURL: inject("appUrl") });
    const page = await context.newPage();
    await openTourPage(page, SIGNED_OUT_TOUR[0]);
    // after hydration, which would otherwise drop a node React did not render from <main>
    await page.waitForLoadState("networkidle");
    // a button with no name, as a careless change would add (in <body>, where React 19 leaves foreign nodes alone)
    await page.evaluate(() =>
      document.body.append(Object.assign(document.createElement("button"), { id: "nameless" })),
    );
    await page.locator("#nameless").waitFor({ state: "attached" });
    const results = await new AxeBuilder({ page }).withTags(WCAG_21_AA).analyze();
    expect(results.violations.map((v) => v.id)).toContain("button-name");
    await context.close();
  });
});
