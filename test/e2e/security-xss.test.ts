import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appUrl, launchBrowser, signedInPage } from "../helpers/browser";
import { importThroughApi } from "../helpers/e2e-import";
import { findings, watchScriptsAndPolicy } from "../security/browser-probe";

// Issue 10: stored cross-site scripting. Script, <img onerror>, javascript: links and SVG
// payloads go into an issue text, a trajectory observation, a comment, a file name and a
// reviewer diagnosis through the real import and decision APIs; then every page that shows
// them is opened in Chromium and nothing may have run (nor be in the DOM ready to run).

const payloads = (where: string) =>
  [
    `XSS-${where} marker`,
    `<script>window.__xss.push("${where}-script")</script>`,
    `<img src=x onerror="window.__xss.push('${where}-img')">`,
    `[a link](javascript:window.__xss.push('${where}-md-link'))`,
    `<a href="javascript:window.__xss.push('${where}-a')">xss-link</a>`,
    `<svg onload="window.__xss.push('${where}-svg')"><script>window.__xss.push('${where}-svg-script')</script></svg>`,
    `<iframe srcdoc="<script>parent.__xss.push('${where}-iframe')</script>"></iframe>`,
  ].join("\n\n");

const INSTANCE = "xss__probe-1";
const EVIL_FILE = `<img src=x onerror="window.__xss.push('file')">XSS-FILE.py`;
const patch = `diff --git a/${EVIL_FILE} b/${EVIL_FILE}\n--- a/${EVIL_FILE}\n+++ b/${EVIL_FILE}\n@@ -1 +1 @@\n-a = 1\n+a = 2\n`;

const instance = {
  instance_id: INSTANCE,
  repo: "xss/probe",
  base_commit: "c0ffee",
  problem_statement: payloads("ISSUE"),
  hints_text: payloads("HINTS"),
  patch,
  test_patch: "diff --git a/tests/test_probe.py b/tests/test_probe.py\n",
  FAIL_TO_PASS: ["tests/test_probe.py::test_probe"],
  PASS_TO_PASS: [],
};

const verdict = {
  review_id: "xss-review-1",
  instance_id: INSTANCE,
  candidate: { generator: `<svg onload="window.__xss.push('generator')">gen`, patch },
  reviewer_model: `<img src=x onerror="window.__xss.push('reviewer')">XSS-REVIEWER`,
  decision: "approve",
  confidence: 0.5,
  diagnosis: {
    root_cause: payloads("DIAGNOSIS"),
    defects: [payloads("DEFECT"), { description: payloads("DEFECT2"), file: EVIL_FILE, line: 1, severity: "high" }],
    suggested_fix: payloads("FIX"),
    text: payloads("DIAGTEXT"),
  },
  trajectory: {
    steps: [{ thought: payloads("THOUGHT"), action: payloads("ACTION"), observation: payloads("OBSERVATION") }],
  },
};

let browser: Awaited<ReturnType<typeof launchBrowser>>;

beforeAll(async () => {
  browser = await launchBrowser();
  const { context } = await signedInPage(browser, "curator");
  await importThroughApi(
    context.request,
    `<img src=x onerror="window.__xss.push('import-name')">XSS-IMPORT.jsonl`,
    JSON.stringify(instance) + "\n",
  );
  await importThroughApi(context.request, "xss-reviewer-verdicts.jsonl", JSON.stringify(verdict) + "\n");
  const task = (await (await context.request.get(appUrl(`/api/v1/tasks/${INSTANCE}`))).json()) as {
    id: string;
    version: number;
  };
  const decided = await context.request.post(appUrl("/api/v1/decisions"), {
    data: {
      taskId: task.id,
      verdict: "NEEDS_CHANGES",
      reasons: ["OTHER"],
      comment: payloads("COMMENT"),
      version: task.version,
    },
  });
  expect(decided.status(), await decided.text()).toBe(201);
  await context.close();
});
afterAll(async () => browser?.cleanup());

describe("stored script payloads", () => {
  it("run nowhere: task list, task page, trajectory, reviewers, imports", async () => {
    const { context, page } = await signedInPage(browser, "curator");
    await watchScriptsAndPolicy(context);
    const task = (await (await context.request.get(appUrl(`/api/v1/tasks/${INSTANCE}`))).json()) as {
      id: string;
      trajectories: { id: string }[];
    };
    const pages = [
      `/tasks?q=${INSTANCE}`,
      `/tasks/${task.id}`,
      ...task.trajectories.map((t) => `/trajectories/${t.id}`),
      "/reviewers",
      "/imports",
    ];
    const shown = new Set<string>();
    for (const path of pages) {
      await page.goto(appUrl(path));
      await page.waitForLoadState("networkidle");
      // open whatever is folded away (diagnosis, steps, details)
      for (const summary of await page.locator("details:not([open]) > summary").all())
        await summary.click().catch(() => {});
      // what an opened section loads has arrived once the network is quiet again
      await page.waitForLoadState("networkidle");
      const text = await page.locator("body").innerText();
      for (const marker of text.match(/XSS-[A-Z0-9]+/g) ?? []) shown.add(marker);
      const seen = await findings(page);
      expect(seen.ran, `${path}: scripts that ran`).toEqual([]);
      expect(seen.executableMarkup, `${path}: handlers or javascript: URLs in the DOM`).toEqual([]);
      expect(seen.violations, `${path}: scripts the CSP had to block`).toEqual([]);
    }
    // the payloads were really on screen, as text: the test looked at what it meant to
    for (const marker of ["XSS-ISSUE", "XSS-COMMENT", "XSS-DIAGNOSIS", "XSS-OBSERVATION", "XSS-FILE", "XSS-IMPORT"])
      expect([...shown], marker).toContain(marker);
    await context.close();
  });
});
