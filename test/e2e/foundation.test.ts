import { spawnSync } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inject } from "vitest";
import { appUrl, launchBrowser, signedInPage } from "../helpers/browser";

const ROOT = path.resolve(import.meta.dirname, "../..");
let browser: Awaited<ReturnType<typeof launchBrowser>>;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => browser?.cleanup());

describe("signed in, each role sees what it may do", () => {
  it("a curator signs in, sees the demo tasks from Postgres, and opens one", async () => {
    const { context, page } = await signedInPage(browser, "curator");
    await page.goto(appUrl("/tasks"));
    await expect(page.getByTestId("whoami").textContent()).resolves.toContain("CURATOR");
    // the list is virtualized and other e2e files add tasks: find rows through search, as a curator would
    const search = page.getByLabel("Search instance ids and problem statements");
    await search.fill("django__django-15781"); // a real SWE-bench Lite instance from the seed
    await page.getByRole("link", { name: "django__django-15781", exact: true }).waitFor();
    await search.fill("demo__calc-1");
    await page.waitForURL(/q=demo__calc-1/);
    await page.getByRole("link", { name: "demo__calc-1", exact: true }).click();
    await page.waitForURL(/\/tasks\/[^/?]+$/);
    await expect(page.getByTestId("instance-id").textContent()).resolves.toContain("demo__calc-1");
    await page.getByTestId("problem-statement").getByText("raises ZeroDivisionError").first().waitFor();
    // the fix patch's file is listed and its diff rendered
    await page.getByText("calc/ops.py").first().waitFor();
    await page.locator("#patches-section").scrollIntoViewIfNeeded(); // Monaco loads when the diff comes into view
    await page.getByTestId("monaco-diff").first().waitFor();
    await expect(page.getByRole("link", { name: "Users" }).count()).resolves.toBe(0);
    await context.close();
  });

  it("a row clicked while a typed search is still pending opens that row's task", async () => {
    const { context, page } = await signedInPage(browser, "curator");
    await page.goto(appUrl("/tasks"));
    const firstRow = page.getByTestId("task-row").first().locator("a");
    const instanceId = (await firstRow.textContent())!.trim();
    // leaving the box applies the search at once; it matches nothing, and the click must still land
    await page.getByLabel("Search instance ids and problem statements").fill("no-task-matches-this-zq");
    await firstRow.click();
    await page.waitForURL(/\/tasks\/[^/?]+$/);
    await expect(page.getByTestId("instance-id").textContent()).resolves.toContain(instanceId);
    await context.close();
  });

  it("a viewer cannot reach the admin page, and the API refuses a viewer's mutation", async () => {
    const { context, page } = await signedInPage(browser, "viewer");
    await page.goto(appUrl("/admin/users"));
    await page.waitForURL(/\/forbidden$/);
    await page.getByRole("heading", { name: "Not allowed" }).waitFor();
    const status = await page.evaluate(async () => (await fetch("/api/v1/users")).status);
    expect(status).toBe(403);
    await context.close();
  });

  it("an admin sees the users page and can change a role", async () => {
    const { context, page } = await signedInPage(browser, "admin");
    await page.goto(appUrl("/admin/users"));
    const select = page.getByLabel("Role of viewer@swe-curator.local");
    await select.selectOption("CURATOR");
    await page.getByRole("status").filter({ hasText: "Saved" }).waitFor();
    await page.reload();
    await expect(page.getByLabel("Role of viewer@swe-curator.local").inputValue()).resolves.toBe("CURATOR");
    await page.getByLabel("Role of viewer@swe-curator.local").selectOption("VIEWER");
    await page.getByRole("status").filter({ hasText: "Saved" }).waitFor();
    await context.close();
  });

  it("without a session, pages send you to sign in and the API answers 401", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(appUrl("/tasks"));
    await page.waitForURL(/\/signin/);
    const response = await page.request.get(appUrl("/api/v1/tasks"));
    expect(response.status()).toBe(401);
    await context.close();
  });
});

describe("a second npm start while one runs", () => {
  it("fails with a clear message about the port in use, and the first keeps serving", () => {
    const port = new URL(inject("appUrl")).port;
    const second = spawnSync(process.execPath, ["--import", "tsx", "scripts/start.ts"], {
      cwd: ROOT,
      env: { ...process.env, PORT: port, HOST: "127.0.0.1", DATABASE_URL: "" },
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(second.status).toBe(1);
    expect(second.stderr).toMatch(new RegExp(`Port ${port} is already in use`));
  });

  it("fails with a clear message when the database folder is in use", async () => {
    const dbUrl = new URL(inject("e2eDatabaseUrl"));
    const second = spawnSync(process.execPath, ["--import", "tsx", "scripts/start.ts"], {
      cwd: ROOT,
      env: {
        ...process.env,
        PORT: "0",
        HOST: "127.0.0.1",
        DATABASE_URL: "",
        EMBEDDED_PG_DATA: inject("e2eDataDir"),
        EMBEDDED_PG_PORT: String(Number(dbUrl.port) + 1),
      },
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(second.status).toBe(1);
    expect(second.stderr).toMatch(/already in use by PostgreSQL/);
    const stillServing = await fetch(appUrl("/signin"));
    expect(stillServing.status).toBe(200);
  });
});
