// The README's screenshots, taken in headless Chromium from a running `npm start` (with a
// worker and Docker, since one shows a finished validation).
// Usage: npx tsx scripts/readme-screenshots.ts http://localhost:3000 admin@swe-curator.local ADMIN_PASSWORD

import path from "node:path";
import type { Page } from "playwright-core";
import { launchChromium, signInThroughForm } from "../test/helpers/chromium";

const [
  baseUrl = "http://localhost:3000",
  email = "admin@swe-curator.local",
  password = process.env.ADMIN_PASSWORD ?? "",
] = process.argv.slice(2);
const PUBLIC = path.resolve(import.meta.dirname, "..", "public");

async function shoot(page: Page, name: string, fullPage = true) {
  await page.waitForLoadState("networkidle");
  await page.waitForTimeout(500); // Monaco lays out after its fonts
  await page.screenshot({ path: path.join(PUBLIC, name), fullPage });
  console.log(`wrote public/${name}`);
}

/** One section of a page, for a feature that sits below the fold. */
async function shootElement(page: Page, selector: string, name: string) {
  await page.waitForLoadState("networkidle");
  await page.locator(selector).screenshot({ path: path.join(PUBLIC, name) });
  console.log(`wrote public/${name}`);
}

/** Validates a task through its page's primary button and waits for the verdict. */
async function validate(page: Page) {
  const action = page.getByTestId("next-step-action");
  if ((await page.getByTestId("next-step").getAttribute("data-stage")) !== "unvalidated") return;
  await action.click();
  // a locator, not waitForFunction: the app's CSP forbids the eval Playwright's in-page polling needs
  await page.locator('[data-testid="next-step"][data-stage="validated"]').waitFor({ timeout: 300_000 });
}

async function main() {
  const browser = await launchChromium();
  try {
    const context = await browser.newContext({ baseURL: baseUrl, viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await signInThroughForm(page, baseUrl, { email, password });
    await page.goto("/tasks");
    await page.getByTestId("task-row").first().waitFor();
    await shoot(page, "screenshot.png", false);

    await page.goto("/tasks/demo__calc-2");
    await page.getByTestId("next-step").waitFor();
    await page.locator("#patches-section .monaco-editor .view-lines").first().waitFor();
    await shoot(page, "screenshot-task-unvalidated.png", false);

    await page.goto("/tasks/demo__calc-1");
    await page.getByTestId("next-step").waitFor();
    await validate(page);
    await page.reload();
    await page.getByTestId("next-step").waitFor();
    // scroll through once so every editor below the fold loads before the full-page shot
    for (const id of ["patches-section", "validation-section", "recipe-section", "decide-section"])
      await page.locator(`#${id}`).scrollIntoViewIfNeeded();
    await page.evaluate(() => window.scrollTo(0, 0));
    await shoot(page, "screenshot-task.png");

    // why a test flipped between runs: the evidence matrix of the demo task made for it
    await page.goto("/tasks/demo__calc-evidence");
    await page.locator("#evidence-section").scrollIntoViewIfNeeded();
    await page.getByTestId("evidence-row").first().waitFor();
    await shootElement(page, "#evidence-section", "screenshot-evidence.png");

    await page.goto("/trajectories/search?tab=clusters");
    await page.locator('[aria-label="Failure clusters"] tbody tr').first().waitFor();
    await shoot(page, "screenshot-clusters.png", false);

    await page.goto("/releases");
    await page.locator("main h1").waitFor();
    await shoot(page, "screenshot-releases.png", false);
  } finally {
    await browser.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
