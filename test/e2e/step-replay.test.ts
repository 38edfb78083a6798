import AxeBuilder from "@axe-core/playwright";
import { describe, expect, it } from "vitest";
import { appUrl, browserForFile, signedInPage } from "../helpers/browser";
import { withE2eDatabase } from "../helpers/e2e-database";
import { dockerForTests } from "../helpers/docker";

// A curator replays the demo trajectory on demo__calc-1 up to its doctored step, with the
// keyboard, in the worker running beside the e2e server: progress shows, then the step is
// marked as differing and its recorded and replayed outputs are shown as a Monaco diff.
const docker = await dockerForTests();
const WCAG_21_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];

const demoTrajectoryId = () =>
  withE2eDatabase(async (client) => {
    const { rows } = await client.query<{ trajectory_id: string }>(
      `select trajectory_id from trajectory_steps where action = $1 limit 1`,
      ['grep -n "def mean" calc/ops.py'],
    );
    if (!rows[0]) throw new Error("the demo seed has no replayable trajectory on demo__calc-1");
    return rows[0].trajectory_id;
  });

describe.skipIf(!docker.ready)("replaying a trajectory step", () => {
  const chromium = browserForFile();

  it("replays up to the doctored step: step 6 differs, step 4 matches, the diff shows both, and the panel passes axe", async () => {
    const { page, context } = await signedInPage(chromium.browser, "curator");
    try {
      await page.goto(appUrl(`/trajectories/${await demoTrajectoryId()}?step=6`));
      const panel = page.getByTestId("step-replay");
      const start = panel.getByRole("button", { name: /Replay (up to this step|again)/ });
      await start.focus();
      await page.keyboard.press("Enter");
      const steps = panel.getByRole("list", { name: "Replayed steps" });
      await steps.waitFor({ timeout: 240_000 });
      const row = (n: number) => steps.getByRole("listitem").filter({ hasText: `Step ${n}:` });
      expect(await row(6).textContent()).toContain("output differs");
      expect(await row(4).textContent()).toContain("same output");
      expect(await row(5).textContent()).toContain("edit applied");
      expect(await panel.getByTestId("replay-summary").textContent()).toBe(
        "1 of 6 replayed steps differ from the recording.",
      );
      const diff = panel.getByTestId("replay-diff");
      // Monaco is built when its placeholder scrolls into view, as on every page
      await panel.getByTestId("replay-selected").scrollIntoViewIfNeeded();
      await diff
        .locator(".editor.modified .view-line")
        .filter({ hasText: "mean() of an empty sequence" })
        .first()
        .waitFor({ timeout: 30_000 });
      await diff
        .locator(".editor.original .view-line")
        .filter({ hasText: "mean() of an empty list" })
        .first()
        .waitFor();

      // another replayed step is picked by keyboard too
      await row(4)
        .getByRole("button", { name: /Step 4:/ })
        .focus();
      await page.keyboard.press("Enter");
      await panel.getByTestId("replay-selected").scrollIntoViewIfNeeded();
      await diff
        .locator(".editor.modified .view-line")
        .filter({ hasText: "ZeroDivisionError division by zero" })
        .first()
        .waitFor({ timeout: 30_000 });

      const results = await new AxeBuilder({ page })
        .include('[data-testid="step-replay"]')
        .withTags(WCAG_21_AA)
        .analyze();
      expect(
        results.violations
          .filter((v) => v.impact === "serious" || v.impact === "critical")
          .map((v) => `${v.id}: ${v.help}`),
      ).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
