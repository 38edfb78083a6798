import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { appUrl, launchBrowser, signedInPage } from "../helpers/browser";
import { demoTaskId, withE2eDatabase } from "../helpers/e2e-database";
import { dockerForTests } from "../helpers/docker";

// A curator runs an agent patch that adds a conftest.py reporting failures as passed:
// the run card says it is not resolved, names the failure class and the path.
const docker = await dockerForTests();

const CONFTEST_ATTACK = `diff --git a/conftest.py b/conftest.py
new file mode 100644
--- /dev/null
+++ b/conftest.py
@@ -0,0 +1,9 @@
+import pytest
+
+
+@pytest.hookimpl(hookwrapper=True)
+def pytest_runtest_makereport(item, call):
+    outcome = yield
+    report = outcome.get_result()
+    if report.failed:
+        report.outcome, report.longrepr = "passed", None
`;

async function addCandidate(instanceId: string, generator: string, patch: string): Promise<string> {
  const taskId = await demoTaskId(instanceId);
  await withE2eDatabase((client) =>
    client.query(
      "insert into candidate_patches (id, task_id, generator, patch, updated_at) values ($1, $2, $3, $4, now())",
      [`e2e${randomBytes(8).toString("hex")}`, taskId, generator, patch],
    ),
  );
  return taskId;
}

describe.skipIf(!docker.ready)("a candidate that touches the tests, seen by a curator", () => {
  let browser: Browser & { cleanup(): Promise<void> };
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.cleanup();
  });

  it("shows not resolved, the failure class and the path it touched", async () => {
    const taskId = await addCandidate("demo__calc-2", "e2e-conftest-attacker", CONFTEST_ATTACK);
    const { page, context } = await signedInPage(browser, "curator");
    try {
      await page.goto(appUrl(`/tasks/${taskId}`));
      const candidate = page.getByRole("listitem").filter({ hasText: "e2e-conftest-attacker" });
      await candidate.getByRole("button", { name: "Run with the tests" }).click();
      const card = page.getByTestId("run-card").filter({ hasText: "e2e-conftest-attacker" });
      await card.getByText("not resolved", { exact: true }).waitFor({ timeout: 240_000 });
      expect(await card.textContent()).toContain("Candidate touched tests");
      expect(await card.getByTestId("touched-test-paths").textContent()).toContain("conftest.py");
      expect(await card.textContent()).toContain("CANDIDATE_CHANGES_TESTS");
    } finally {
      await context.close();
    }
  });
});
