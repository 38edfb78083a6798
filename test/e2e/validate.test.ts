import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inject } from "vitest";
import type { Browser } from "playwright-core";
import { appUrl, launchBrowser, signedInPage } from "../helpers/browser";
import { dockerForTests } from "../helpers/docker";

// A curator clicks Validate on the good demo task and watches it happen: the live log
// streams from the worker running beside the e2e server, then the verdict appears.
const docker = await dockerForTests();

async function taskId(instanceId: string): Promise<string> {
  const client = new pg.Client({ connectionString: inject("e2eDatabaseUrl") });
  await client.connect();
  try {
    const { rows } = await client.query<{ id: string }>("select id from tasks where instance_id = $1", [instanceId]);
    if (!rows[0]) throw new Error(`the demo seed has no task ${instanceId}`);
    return rows[0].id;
  } finally {
    await client.end();
  }
}

describe.skipIf(!docker.ready)("validating a task from the browser", () => {
  let browser: Browser & { cleanup(): Promise<void> };
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.cleanup();
  });

  it("shows the live log and then the VALID verdict", async () => {
    const { page, context } = await signedInPage(browser, "curator");
    try {
      // the task page embeds the validation panel (so does /jobs/tasks/<id>)
      await page.goto(appUrl(`/tasks/${await taskId("demo__calc-1")}`));
      const panel = page.getByTestId("validation-panel");
      await panel.getByTestId("validation-verdict").waitFor();
      expect(await panel.getByTestId("validation-verdict").textContent()).toContain("PENDING");
      await panel.getByTestId("validate-button").click();

      const log = panel.getByTestId("live-log");
      await log.waitFor({ timeout: 30_000 });
      await page.waitForFunction(() => document.querySelector("[data-testid=live-log]")?.textContent?.includes("OPENSWE_EXIT_CODE="), null, { timeout: 240_000 });
      expect(await log.textContent()).toMatch(/applying test patch/);

      await page.waitForFunction(() => document.querySelector("[data-testid=validation-verdict]")?.textContent?.includes("VALID"), null, { timeout: 60_000 });
      expect(await panel.getByTestId("validation-verdict").textContent()).not.toContain("INVALID");
      // the runs history shows per-test outcomes
      await expect.poll(() => panel.getByTestId("test-result").count(), { timeout: 10_000 }).toBeGreaterThanOrEqual(6);
    } finally {
      await context.close();
    }
  });
});
