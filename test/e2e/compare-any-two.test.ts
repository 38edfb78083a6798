import { describe, expect, it } from "vitest";
import { appUrl, browserForFile, signedInPage } from "../helpers/browser";

// Issue 30: any two trajectories can be compared, picked by keyboard alone; two trajectories
// of different tasks are compared all the same, and the page says they are different tasks.

describe("compare any two trajectories", () => {
  const chromium = browserForFile();

  it("picks B by keyboard from the picker and opens the comparison", async () => {
    const { page, context } = await signedInPage(chromium.browser, "curator");
    try {
      const task = (await (await context.request.get(appUrl("/api/v1/tasks/pydicom__pydicom-1458"))).json()) as {
        trajectories: { id: string }[];
      };
      const a = task.trajectories[0].id;
      const candidates = (await (
        await context.request.get(appUrl(`/api/v1/trajectories/compare/candidates?near=${a}`))
      ).json()) as {
        nearTaskId: string;
        sameTask: { id: string }[];
        others: { id: string; taskId: string | null }[];
      };
      const b = candidates.sameTask[0] ?? candidates.others[0];
      expect(b, "the demo has a second trajectory to compare with").toBeDefined();

      await page.goto(appUrl(`/trajectories/compare?a=${a}`));
      const picker = page.getByTestId("compare-picker");
      const select = picker.locator('select[name="b"]');
      await expect.poll(() => select.locator("option").count()).toBeGreaterThan(1);
      // the keyboard alone: focus B's list, take its first trajectory, Tab to Compare and press it
      await select.focus();
      await page.keyboard.press("ArrowDown");
      await expect.poll(() => select.inputValue()).toBe(b.id);
      await page.keyboard.press("Tab");
      await page.keyboard.press("Enter");
      await page.waitForURL((url) => url.searchParams.get("b") === b.id);
      await page.locator('[role="table"] [role="row"]').first().waitFor();
      const differentTasks = !candidates.sameTask.some((c) => c.id === b.id);
      expect(await page.getByTestId("different-tasks").count()).toBe(differentTasks ? 1 : 0);
    } finally {
      await context.close();
    }
  });
});
