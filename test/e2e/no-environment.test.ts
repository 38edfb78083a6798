import { describe, expect, it } from "vitest";
import { appUrl, browserForFile, signedInPage } from "../helpers/browser";
import { demoTaskId } from "../helpers/e2e-database";
import { importThroughApi } from "../helpers/e2e-import";

// Issue 26, no dead ends: a task imported with no usable environment (a SWE-rebench row with no
// docker_image and no test command) offers no Validate. Its page says what is missing and links
// the ways forward; its environment's page shows the source; the imports page says how many
// tasks got which source.

const INSTANCE = "e2e-octo__calc-no-environment";
const ROW = {
  instance_id: INSTANCE,
  repo: "octo/calc",
  base_commit: "no-environment",
  problem_statement: "mean([]) raises ZeroDivisionError",
  patch: "",
  test_patch: "",
  FAIL_TO_PASS: [],
  PASS_TO_PASS: [],
  install_config: { python: "3.9" },
};

describe("a task without an environment", () => {
  const chromium = browserForFile();

  it("offers no Validate, says in one sentence what is missing, and links the ways forward", async () => {
    const { page, context } = await signedInPage(chromium.browser, "curator");
    try {
      await importThroughApi(context.request, "swe-rebench-no-image.json", JSON.stringify([ROW]));
      await page.goto(appUrl(`/tasks/${await demoTaskId(INSTANCE)}`));
      const panel = page.getByTestId("validation-panel");
      const missing = panel.getByTestId("no-environment");
      await missing.waitFor();
      expect(await missing.textContent()).toContain(`Task ${INSTANCE} has no environment yet`);
      expect(await panel.getByTestId("validate-button").count()).toBe(0);
      expect(await missing.getByRole("link").allTextContents()).toEqual([
        "Use the dataset's published image",
        "Generate the environment from the harness spec",
        "Write a recipe (Dockerfile and eval script)",
      ]);
      await missing.getByRole("link", { name: "Write a recipe (Dockerfile and eval script)" }).click();
      await page.getByTestId("environment-source").waitFor();
      expect(await page.getByTestId("environment-source").textContent()).toContain("No environment yet");

      // the API refuses too, with the same sentence
      const refused = await context.request.post(appUrl("/api/v1/runs"), {
        data: { taskId: await demoTaskId(INSTANCE) },
        headers: { origin: new URL(appUrl()).origin },
      });
      expect(refused.status()).toBe(422);
      expect(await refused.text()).toContain("has no environment yet");
    } finally {
      await context.close();
    }
  });

  it("does not change the demo's recipe tasks, which still offer Validate", async () => {
    const { page, context } = await signedInPage(chromium.browser, "curator");
    try {
      await page.goto(appUrl(`/tasks/${await demoTaskId("demo__calc-2")}`));
      await page.getByTestId("validate-button").waitFor();
      expect(await page.getByTestId("no-environment").count()).toBe(0);
    } finally {
      await context.close();
    }
  });
});
