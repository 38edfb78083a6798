import type { Page } from "playwright-core";
import { runLogHref } from "@/components/validation/run-log-href";

// Every page type of the app, with a check that says when its main content is on screen:
// shared by the accessibility test and `npm run bench:pages`, so both visit the same pages.

/** true in the page once main holds its content (no "Loading…" left in it). */
const MAIN_LOADED = `(() => { const main = document.querySelector("main"); return !!main && main.innerText.trim().length > 0 && !/Loading/.test(main.innerText); })()`;

/**
 * ready: true once the page's main content shows (what `npm run bench:pages` times);
 * complete: true once everything on it has rendered (what the axe test waits for), when that comes later.
 */
export type TourPage = { name: string; path: string; ready: string; complete?: string };

/** The demo task, environment and trajectory the tour opens, looked up through the API as the signed-in page. */
export async function tourIds(page: Page) {
  const get = async <T>(path: string): Promise<T> => {
    const response = await page.request.get(path);
    if (!response.ok()) throw new Error(`${path} answered ${response.status()}`);
    return (await response.json()) as T;
  };
  const task = await get<{ id: string; environment: { id: string } }>("/api/v1/tasks/demo__calc-1");
  const traced = await get<{ trajectories: { id: string }[] }>("/api/v1/tasks/pydicom__pydicom-1458");
  if (!traced.trajectories[0]) throw new Error("the demo seed has no trajectory on pydicom__pydicom-1458");
  const campaigns = await get<{ items: { id: string }[] }>("/api/v1/campaigns");
  if (!campaigns.items[0]) throw new Error("the demo seed has no campaign");
  const releases = await get<{ items: { id: string }[] }>("/api/v1/releases");
  if (releases.items.length < 2) throw new Error("the demo seed has fewer than two releases");
  const [releaseId, previousReleaseId] = releases.items.map((release) => release.id);
  const evidence = await get<{ task: { id: string }; flips: { after: { runId: string; logLine: number | null } }[] }>(
    "/api/v1/tasks/demo__calc-evidence/evidence",
  );
  if (!evidence.flips[0]) throw new Error("the demo seed's demo__calc-evidence has no flip");
  const flipped = evidence.flips[0].after;
  return {
    taskId: task.id,
    environmentId: task.environment.id,
    trajectoryId: traced.trajectories[0].id,
    campaignId: campaigns.items[0].id,
    evidenceTaskId: evidence.task.id,
    runLog: runLogHref(flipped.runId, flipped.logLine),
    releaseId,
    previousReleaseId,
  };
}

/** The page types a signed-in admin reaches (an admin sees every one). */
export function signedInTour(ids: Awaited<ReturnType<typeof tourIds>>): TourPage[] {
  const plain = (name: string, path: string): TourPage => ({ name, path, ready: MAIN_LOADED });
  // an analytics page is ready once its first table has rows (it says "Computing…" before)
  const table = (name: string, path: string, testId: string): TourPage => ({
    name,
    path,
    ready: `!!document.querySelector('[data-testid="${testId}"] tbody tr')`,
  });
  return [
    { name: "task list", path: "/tasks", ready: `!!document.querySelector('[data-testid="task-row"]')` },
    {
      name: "task",
      path: `/tasks/${ids.taskId}`,
      ready: `!!document.querySelector('[data-testid="problem-statement"]') && !!document.querySelector('[data-testid="validation-panel"]')`,
    },
    // the evidence matrix, with its explained flips, below the task's validation
    {
      name: "task evidence",
      path: `/tasks/${ids.evidenceTaskId}`,
      ready: `!!document.querySelector('[data-testid="evidence-matrix"]') && !!document.querySelector('[data-testid="flip"]')`,
    },
    { name: "run log at a line", path: ids.runLog, ready: `!!document.querySelector('[data-testid="log-line"]')` },
    plain("review queue", "/review"),
    plain("environment list", "/environments"),
    plain("environment", `/environments/${ids.environmentId}`),
    {
      name: "trajectory",
      path: `/trajectories/${ids.trajectoryId}`,
      ready: `!!document.querySelector('[role="listbox"] [role="option"]')`,
    },
    // the demo has one trajectory per task: compared with itself, every row is aligned
    {
      name: "trajectory compare",
      path: `/trajectories/compare?a=${ids.trajectoryId}&b=${ids.trajectoryId}`,
      ready: `!!document.querySelector('[role="table"] [role="row"]')`,
    },
    // any two: the picker alone, before B is chosen
    {
      name: "trajectory compare picker",
      path: `/trajectories/compare?a=${ids.trajectoryId}`,
      ready: `!!document.querySelector('[data-testid="compare-picker"] select[name="b"] option')`,
    },
    plain("campaign list", "/campaigns"),
    plain("new campaign", "/campaigns/new"),
    plain("rubrics", "/campaigns/rubrics"),
    {
      name: "trajectory search",
      path: "/trajectories/search?q=PixelRepresentation",
      ready: `!!document.querySelector('[aria-label="Matching steps"] li mark')`,
    },
    {
      name: "failure clusters",
      path: "/trajectories/search?tab=clusters",
      ready: `!!document.querySelector('[aria-label="Failure clusters"] tbody tr')`,
    },
    plain("campaign", `/campaigns/${ids.campaignId}`),
    plain("campaign annotation", `/campaigns/${ids.campaignId}/annotate`),
    plain("campaign adjudication", `/campaigns/${ids.campaignId}/adjudicate`),
    plain("jobs", "/jobs"),
    plain("task jobs", `/jobs/tasks/${ids.taskId}`),
    plain("environment jobs", `/jobs/environments/${ids.environmentId}`),
    plain("imports", "/imports"),
    plain("agreement", "/agreement"),
    plain("analytics", "/analytics"),
    table("validation funnel", "/analytics/funnel", "funnel-table"),
    table("reviewer analytics", "/analytics/reviewers", "reviewer-table"),
    table("generated tests", "/analytics/generated-tests", "generated-tests-table"),
    table("verifiability", "/analytics/verifiability", "verifiability-table"),
    plain("trajectory labels", "/trajectories/labels"),
    plain("releases", "/releases"),
    {
      name: "release",
      path: `/releases/${ids.releaseId}`,
      ready: `!!document.querySelector('[data-testid="release-tasks"] tbody tr')`,
    },
    {
      name: "release diff",
      path: `/releases/diff?from=${ids.previousReleaseId}&to=${ids.releaseId}`,
      ready: `!!document.querySelector('[data-testid="release-diff-counts"]')`,
    },
    plain("reviewers", "/reviewers"),
    plain("users", "/admin/users"),
    plain("API tokens", "/settings/tokens"),
    plain("account", "/settings/account"),
    // the route index comes with the HTML; Swagger UI (schemas, Try it out) loads below it
    plain("not found", "/no-such-page"),
    {
      name: "API reference",
      path: "/settings/api",
      ready: `!!document.querySelector('[data-testid="api-route-index"] tbody tr')`,
      complete: `!!document.querySelector('[data-testid="api-reference"] .opblock') && ${MAIN_LOADED}`,
    },
  ];
}

/** The names of the signed-in tour's pages, known before any id is (a test per page is named by them). */
export const SIGNED_IN_PAGE_NAMES = signedInTour({
  taskId: "",
  environmentId: "",
  trajectoryId: "",
  campaignId: "",
  evidenceTaskId: "",
  runLog: "",
  releaseId: "",
  previousReleaseId: "",
}).map((tourPage) => tourPage.name);

/** The page types anyone reaches without a session. */
export const SIGNED_OUT_TOUR: TourPage[] = [
  { name: "sign-in", path: "/signin", ready: `!!document.querySelector("form input[type=password]")` },
  { name: "forbidden", path: "/forbidden", ready: MAIN_LOADED },
  { name: "not found", path: "/no-such-page", ready: MAIN_LOADED },
];

/**
 * Waits until a page expression holds, checked from here: the app's CSP forbids eval, which
 * Playwright's in-page polling of waitForFunction needs, while page.evaluate is exempt.
 */
export async function waitInPage(page: Page, expression: string, timeout = 60_000) {
  const deadline = Date.now() + timeout;
  while (!(await page.evaluate(expression))) {
    if (Date.now() > deadline)
      throw new Error(`${page.url()}: still not true after ${timeout / 1000} s: ${expression}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Opens a tour page and waits until all of it has rendered. */
export async function openTourPage(page: Page, tourPage: TourPage, timeout = 60_000) {
  await page.goto(tourPage.path);
  await waitInPage(page, tourPage.complete ?? tourPage.ready, timeout);
}

/** Scrolls every editor placeholder into view and waits for Monaco to replace it, so a check sees the editors too. */
export async function loadEveryEditor(page: Page, timeout = 60_000) {
  // one at a time, as a reader scrolls: an editor scrolled past before its observer fired stays a placeholder
  const deadline = Date.now() + timeout;
  for (;;) {
    const busy = page.locator('main [aria-busy="true"]');
    const left = await busy.count();
    if (left === 0) return;
    if (Date.now() > deadline)
      throw new Error(
        `${page.url()}: ${left} editor placeholder(s) still loading after ${timeout / 1000} s: ${(await busy.first().getAttribute("aria-label")) ?? (await busy.first().textContent())}`,
      );
    await busy
      .first()
      .scrollIntoViewIfNeeded({ timeout: 5_000 })
      .catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
