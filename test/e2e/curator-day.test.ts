import { describe, expect, it } from "vitest";
import { appUrl, browserForFile, signedInPage } from "../helpers/browser";

// A curator's day in Chromium, with the keyboard where the day is keyboard work: the review
// queue answers keys on arrival and says how much is left, a misclicked decision is undone
// (and the history says so), and a wrong address lands on a page with a way on.

const chromium = browserForFile();

describe("a curator's day", () => {
  it("the review queue says how much is left and takes keys at once: j, without a click, opens the first task", async () => {
    const { context, page } = await signedInPage(chromium.browser, "curator");
    await page.goto(appUrl("/review"));
    await page.getByTestId("queue-left").filter({ hasText: /^\d+ of \d+ left$/ }).waitFor();
    await page.keyboard.press("j");
    await page.getByTestId("instance-id").waitFor();
    await context.close();
  });

  it("in the queue, deciding moves on at once, and the queue offers to undo that decision, which returns to its task", async () => {
    const { context, page } = await signedInPage(chromium.browser, "curator");
    // a queue of one task outside the demo campaign (whose blind tasks keep the decision from an annotator)
    await page.goto(appUrl("/review?q=django__django-15781"));
    await page.getByTestId("queue-left").filter({ hasText: /^1 of 1 left$/ }).waitFor();
    await page.keyboard.press("j");
    const decided = (await page.getByTestId("instance-id").textContent())!.trim();
    const form = page.getByTestId("decision-form");
    await form.getByLabel("Needs changes").check();
    await form.getByLabel("Other", { exact: true }).check();
    await form.getByLabel("Comment").fill("e2e: a misclick to undo");
    const confirm = form.getByTestId("confirm-unvalidated").getByRole("checkbox");
    if (await confirm.count()) await confirm.check();
    await form.getByTestId("submit-decision").click();
    const notice = page.getByTestId("queue-last-decision");
    await notice.filter({ hasText: `on ${decided}` }).waitFor();
    await notice.getByRole("button", { name: "Undo my needs changes" }).click();
    await notice.waitFor({ state: "detached" });
    await page.getByTestId("instance-id").filter({ hasText: decided }).waitFor();
    await page.getByTestId("decision-form").waitFor();
    await context.close();
  });

  it("a misclicked approval is undone from the task page; the task is undecided again and its history says so", async () => {
    const { context, page } = await signedInPage(chromium.browser, "curator");
    await page.goto(appUrl("/tasks/django__django-15781"));
    const form = page.getByTestId("decision-form");
    await form.getByLabel("Approve").check();
    const confirm = form.getByTestId("confirm-unvalidated").getByRole("checkbox");
    if (await confirm.count()) await confirm.check();
    await form.getByTestId("submit-decision").click();
    await page.getByTestId("decision-recorded").waitFor();
    await page.getByTestId("decisions").getByText("APPROVE", { exact: true }).waitFor();
    await page.getByRole("button", { name: "Undo my approve" }).click();
    await page.getByText("No curator has decided yet.").waitFor();
    await page.getByTestId("history-action").filter({ hasText: /decision undone/i }).first().waitFor();
    await context.close();
  });

  it("a wrong address shows the navigation, a task search and a way back", async () => {
    const { context, page } = await signedInPage(chromium.browser, "curator");
    await page.goto(appUrl("/tasks"));
    await page.goto(appUrl("/no-such-page"));
    await page.getByRole("heading", { name: "Page not found" }).waitFor();
    await expect(page.getByRole("navigation").count()).resolves.toBeGreaterThan(0);
    await page.getByRole("button", { name: "Go back" }).click();
    await page.waitForURL((url) => url.pathname === "/tasks");
    await page.goto(appUrl("/no-such-page"));
    await page.getByRole("searchbox", { name: /Search tasks/ }).fill("demo__calc-1");
    await page.getByRole("button", { name: "Search" }).click();
    await page.waitForURL(/\/tasks\?q=demo__calc-1/);
    await page.getByRole("link", { name: "demo__calc-1", exact: true }).waitFor();
    await context.close();
  });
});
