import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { appUrl, launchBrowser, signedInPage } from "../helpers/browser";
import { E2E_PASSWORDS } from "../helpers/e2e-server";
import { withE2eDatabase } from "../helpers/e2e-database";

// An annotation campaign in a real Chromium: an admin creates it with the default rubric and
// overlap 3; three annotators label by keyboard — one of them first held on the gold set
// until they pass it — blind until each submits; the adjudication page lists the
// disagreement and the export carries the rubric columns.

const REAL_TASK = "django__django-16255";
const GOLD_TASK = "pydicom__pydicom-1194";
const ANNOTATORS = {
  a: "annotator-a@swe-curator.local",
  b: "annotator-b@swe-curator.local",
  curator: "curator@swe-curator.local",
};

let browser: Awaited<ReturnType<typeof launchBrowser>>;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => browser?.cleanup());

async function signedInAs(b: Browser, email: string) {
  const context = await b.newContext();
  const page = await context.newPage();
  await page.goto(appUrl("/signin"));
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(E2E_PASSWORDS.demo);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL((url) => !url.pathname.startsWith("/signin"), { timeout: 30_000 });
  return { context, page };
}

type Scores = { underspecified: number; tests: number; difficulty: number; major: "y" | "n"; confidence: number };

/** Answers the default rubric with the keyboard only: digits and y/n pick, Tab moves on, Ctrl+Enter submits. */
async function answerByKeyboard(page: Page, scores: Scores) {
  await page.getByTestId("rubric-form").locator('fieldset[data-question="underspecified"] input').first().focus();
  await page.keyboard.press(String(scores.underspecified));
  await page.keyboard.press("Tab");
  await page.keyboard.type("The issue names the failing call and what it should return.");
  await page.keyboard.press("Tab");
  await page.keyboard.press(String(scores.tests));
  await page.keyboard.press("Tab");
  await page.keyboard.type("The new test checks exactly the behaviour the issue asks for.");
  await page.keyboard.press("Tab");
  await page.keyboard.press(String(scores.difficulty));
  await page.keyboard.press("Tab");
  await page.keyboard.press(scores.major);
  await page.keyboard.press("Tab");
  await page.keyboard.press(String(scores.confidence));
  await page.keyboard.press("Control+Enter");
  const submitted = page.getByTestId("after-submit");
  // Next's route announcer is an empty alert: only an alert that says something is a refusal
  const refusal = page.getByRole("alert").filter({ hasText: /\S/ });
  await submitted.or(refusal).first().waitFor({ timeout: 30_000 });
  if (!(await submitted.isVisible()))
    throw new Error(`the label was refused: ${(await refusal.allTextContents()).join(" | ")}`);
}

describe("an annotation campaign", () => {
  it("is created, labelled by keyboard behind a gold set and blind, adjudicated and exported", async () => {
    // the admin creates the campaign in the form, with the default rubric and overlap 3
    const admin = await signedInPage(browser, "admin");
    await admin.page.goto(appUrl("/campaigns"));
    await admin.page.getByTestId("campaign-row").filter({ hasText: "(demo)" }).waitFor(); // the demo's campaign in progress
    await admin.page.getByRole("link", { name: "New campaign" }).click();
    await admin.page.getByLabel("Name").fill("e2e verified-style");
    await admin.page.getByLabel("Tasks: task list query").fill(`q=${REAL_TASK}`);
    for (const name of ["Demo Curator", "Demo Annotator A", "Demo Annotator B"])
      await admin.page.getByLabel(new RegExp(name)).check();
    await expect(admin.page.getByLabel("Labels per task (overlap)").inputValue()).resolves.toBe("3");
    await admin.page.getByTestId("create-campaign").click();
    await admin.page.waitForURL(
      (url) => /^\/campaigns\/[^/]+$/.test(url.pathname) && url.pathname !== "/campaigns/new",
      { timeout: 30_000 },
    );
    const campaignId = new URL(admin.page.url()).pathname.split("/").pop()!;
    await admin.page.getByText("SWE-bench Verified v1").waitFor();

    // a gold task; the demo curator and annotator B were calibrated before, annotator A is new
    const gold = await admin.context.request.post(appUrl(`/api/v1/campaigns/${campaignId}/gold`), {
      data: {
        taskId: GOLD_TASK,
        explanation: "The issue shows the failing value and the expected one.",
        reference: {
          underspecified: 1,
          underspecified_reason: "The expected value is in the report.",
          tests_valid: 0,
          tests_reason: "The test reads the value the issue names.",
          difficulty: 1,
          major_issue: false,
          confidence: 4,
        },
      },
    });
    expect(gold.status(), await gold.text()).toBe(201);
    await withE2eDatabase((client) =>
      client.query(
        "update campaign_annotators set gold_passed_at = now() where campaign_id = $1 and user_id in (select id from users where email = any($2))",
        [campaignId, [ANNOTATORS.curator, ANNOTATORS.b]],
      ),
    );

    // annotator A is held on the gold set first, sees the reference, then gets the real task
    const a = await signedInAs(browser, ANNOTATORS.a);
    await a.page.goto(appUrl(`/campaigns/${campaignId}/annotate`));
    await a.page.getByTestId("annotate-instance").getByText(GOLD_TASK).waitFor({ timeout: 30_000 });
    await a.page.getByText("Gold set 1 of 1").waitFor();
    await answerByKeyboard(a.page, { underspecified: 1, tests: 0, difficulty: 1, major: "n", confidence: 4 });
    await a.page
      .getByTestId("gold-feedback")
      .getByText("The issue shows the failing value and the expected one.")
      .waitFor();
    await a.page.getByTestId("gold-gate").getByText("You passed the gold set").waitFor();
    await expect
      .poll(() => a.page.evaluate(() => document.activeElement?.getAttribute("data-testid")))
      .toBe("next-task");
    await a.page.keyboard.press("n");
    await a.page.getByTestId("annotate-instance").getByText(REAL_TASK).waitFor({ timeout: 30_000 });
    await answerByKeyboard(a.page, { underspecified: 0, tests: 0, difficulty: 1, major: "n", confidence: 5 });

    // the curator is blind to A's answers and to the verdict until submitting
    const curator = await signedInAs(browser, ANNOTATORS.curator);
    await curator.page.goto(appUrl(`/campaigns/${campaignId}/annotate`));
    await curator.page.getByTestId("annotate-instance").getByText(REAL_TASK).waitFor({ timeout: 30_000 });
    await curator.page.getByText("automated verdict hidden until you submit").waitFor();
    await expect(curator.page.getByText("Others' answers").count()).resolves.toBe(0);
    // the attack: read the verdict from the task page's first HTML, where the server puts the task's data
    const html = await (await curator.context.request.get(appUrl(`/tasks/${REAL_TASK}`))).text();
    expect(html).toContain("hidden until you submit your label");
    expect(html).not.toMatch(/automatedVerdict\\?":\\?"[A-Z]/);
    // … or from the task list's first HTML, whose verdict column and counts would tell it
    expect(await (await curator.context.request.get(appUrl("/tasks"))).text()).not.toContain(REAL_TASK);
    await answerByKeyboard(curator.page, { underspecified: 2, tests: 0, difficulty: 2, major: "n", confidence: 3 });
    await curator.page.getByText("Others' answers").waitFor({ timeout: 30_000 });
    await curator.page.getByTestId("after-submit").getByRole("columnheader", { name: "Demo Annotator A" }).waitFor();

    const b = await signedInAs(browser, ANNOTATORS.b);
    await b.page.goto(appUrl(`/campaigns/${campaignId}/annotate`));
    await b.page.getByTestId("annotate-instance").getByText(REAL_TASK).waitFor({ timeout: 30_000 });
    await answerByKeyboard(b.page, { underspecified: 0, tests: 3, difficulty: 1, major: "n", confidence: 4 });
    // the third label finishes the task: most severe of (0, 2, 0) and (0, 0, 3) drops it
    await b.page
      .getByTestId("after-submit")
      .getByText(/the task is dropped/)
      .waitFor();

    // the adjudication page lists the disagreement
    await admin.page.goto(appUrl(`/campaigns/${campaignId}/adjudicate`));
    const disagreement = admin.page.getByTestId("disagreement").filter({ hasText: REAL_TASK });
    await disagreement.waitFor({ timeout: 30_000 });
    await expect(disagreement.locator("tr[data-disagree]").count()).resolves.toBeGreaterThanOrEqual(2);

    // the export has SWE-bench Verified's rubric columns
    const csv = await (
      await admin.context.request.get(appUrl(`/api/v1/campaigns/${campaignId}/export?format=csv`))
    ).text();
    const [header, row] = csv.split("\r\n");
    expect(header.split(",").slice(0, 7)).toEqual([
      "instance_id",
      "repo",
      "underspecified",
      "false_negative",
      "other_major_issues",
      "difficulty",
      "filter_out",
    ]);
    expect(row.startsWith(`${REAL_TASK},django/django,2,3,false,1 – 4 h,true,`)).toBe(true);

    for (const session of [admin, a, curator, b]) await session.context.close();
  });
});
