import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appUrl, launchBrowser, signedInPage } from "../helpers/browser";

// A curator uploads a file in Chromium, watches it import and reads the report; the CLI
// does the same against the running server with an API token.

const BIN = path.resolve(import.meta.dirname, "../../bin/swe-curator.mjs");
let browser: Awaited<ReturnType<typeof launchBrowser>>;
let dir: string;

/** SWE-bench-like rows with two bad ones: line 3 (not JSON) and line 7 (a wrong type). */
function mixedFile(rows: number) {
  const lines: string[] = [];
  for (let i = 1; i <= rows; i++) {
    if (i === 3) lines.push('{"instance_id": "e2e__broken-3", "repo": ');
    else if (i === 7)
      lines.push(
        JSON.stringify({ instance_id: `e2e__typed-${i}`, repo: "e2e/project", base_commit: "c0ffee", FAIL_TO_PASS: 7 }),
      );
    else
      lines.push(
        JSON.stringify({
          instance_id: `e2e__project-${i}`,
          repo: "e2e/project",
          base_commit: `c0ffee${i}`,
          problem_statement: `Issue ${i}: ${"the function returns the wrong value when the list is empty. ".repeat(20)}`,
          patch: `diff --git a/src/m.py b/src/m.py\n--- a/src/m.py\n+++ b/src/m.py\n@@ -1 +1 @@\n-return 1\n+return ${i}\n`,
          test_patch: "diff --git a/tests/test_m.py b/tests/test_m.py\n",
          FAIL_TO_PASS: JSON.stringify([`tests/test_m.py::test_${i}`]),
          PASS_TO_PASS: "[]",
        }),
      );
  }
  return lines.join("\n") + "\n";
}

beforeAll(async () => {
  browser = await launchBrowser();
  dir = mkdtempSync(path.join(tmpdir(), "e2e-imports-"));
});
afterAll(async () => {
  await browser?.cleanup();
  rmSync(dir, { recursive: true, force: true });
});

describe("the Imports page", () => {
  it("uploads a file, shows progress with records/s, then the report with each bad line", async () => {
    const { context, page } = await signedInPage(browser, "curator");
    await page.goto(appUrl("/imports"));
    await page.getByRole("heading", { name: "Import files" }).waitFor();
    const file = path.join(dir, "e2e-mixed.jsonl");
    writeFileSync(file, mixedFile(4000));
    await page.getByLabel(/Drop files here, or choose them/).setInputFiles(file);

    const report = page.getByTestId("import-report");
    await report.waitFor({ timeout: 60_000 });
    await report.getByRole("progressbar", { name: "Import progress" }).waitFor();
    await expect(report.getByTestId("import-rate").textContent()).resolves.toMatch(/records · [\d,]+ records\/s/);
    await report.getByText("PARTIAL").waitFor({ timeout: 120_000 });
    await expect(report.getByTestId("count-created").textContent()).resolves.toBe("3,998");
    await expect(report.getByTestId("count-failed").textContent()).resolves.toBe("2");
    const rows = report.getByRole("row");
    await expect(rows.nth(1).textContent()).resolves.toMatch(/^3.*(cut off|malformed JSON)/);
    await expect(rows.nth(2).textContent()).resolves.toMatch(/^7e2e__typed-7FAIL_TO_PASS must be a list/);
    // the history lists it; the same file again changes nothing
    await page.getByRole("heading", { name: "Import history" }).waitFor();
    await page
      .getByRole("button", { name: /e2e-mixed\.jsonl/ })
      .first()
      .waitFor();
    await context.close();
  });

  it("takes a dropped file too", async () => {
    const { context, page } = await signedInPage(browser, "curator");
    await page.goto(appUrl("/imports"));
    const zone = page.getByTestId("drop-zone");
    await zone.waitFor();
    const text = mixedFile(10);
    await zone.evaluate((element, content) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([content], "dropped.jsonl", { type: "application/octet-stream" }));
      element.dispatchEvent(new DragEvent("drop", { dataTransfer: transfer, bubbles: true, cancelable: true }));
    }, text);
    const report = page.getByTestId("import-report");
    await report.getByRole("heading", { name: "dropped.jsonl" }).waitFor({ timeout: 60_000 });
    await report.getByText("PARTIAL").waitFor({ timeout: 60_000 });
    // rows 1..10 of the same generator: all but the two bad ones were created by the first test
    await expect(report.getByTestId("count-unchanged").textContent()).resolves.toBe("8");
    await context.close();
  });

  it("shows a viewer the history and the export, without the upload", async () => {
    const { context, page } = await signedInPage(browser, "viewer");
    await page.goto(appUrl("/imports"));
    await page.getByRole("heading", { name: "Import history" }).waitFor();
    await expect(page.getByRole("heading", { name: "Import files" }).count()).resolves.toBe(0);
    await expect(page.getByRole("link", { name: "Download JSONL" }).getAttribute("href")).resolves.toBe(
      "/api/v1/exports",
    );
    await context.close();
  });

  it("lets the CLI import through the server with an API token", async () => {
    const { context, page } = await signedInPage(browser, "curator");
    await page.goto(appUrl("/imports"));
    const token = await page.evaluate(async () => {
      const response = await fetch("/api/v1/tokens", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ name: "e2e cli" }),
      });
      return ((await response.json()) as { token: string }).token;
    });
    await context.close();
    const file = path.join(dir, "cli.jsonl");
    writeFileSync(file, mixedFile(2).replace("e2e__project-1", "e2e__cli-1").replace("e2e__project-2", "e2e__cli-2"));
    const result = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, [BIN, "import", file], {
        env: {
          NODE_ENV: "test",
          PATH: process.env.PATH ?? "",
          SWE_CURATOR_URL: appUrl("/").replace(/\/$/, ""),
          SWE_CURATOR_TOKEN: token,
        },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (c) => (stdout += c));
      child.stderr.on("data", (c) => (stderr += c));
      child.on("exit", (code) => resolve({ code, stdout, stderr }));
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(
      /^cli\.jsonl\tSUCCEEDED\tSWE_BENCH_INSTANCES\tcreated=2 updated=0 unchanged=0 failed=0\tbatch=\S+$/m,
    );
  });
});
