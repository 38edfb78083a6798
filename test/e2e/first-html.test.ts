import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { APIRequestContext, BrowserContext } from "playwright-core";
import { appUrl, launchBrowser, signedInPage } from "../helpers/browser";

// Lists and detail pages render their first data on the server: each page's HTML, fetched
// with a signed-in session and read without running any of its JavaScript, already shows
// what a user comes for (a row, a heading, a count), not a loading sentence.

let browser: Awaited<ReturnType<typeof launchBrowser>>;
let context: BrowserContext;
let admin: BrowserContext;
let request: APIRequestContext;
beforeAll(async () => {
  browser = await launchBrowser();
  ({ context } = await signedInPage(browser, "curator"));
  ({ context: admin } = await signedInPage(browser, "admin"));
  request = context.request;
});
afterAll(async () => {
  await context?.close();
  await admin?.close();
  await browser?.cleanup();
});

const api = async <T>(path: string): Promise<T> => {
  const response = await request.get(appUrl(path));
  expect(response.status(), path).toBe(200);
  return (await response.json()) as T;
};

/** The page's rendered markup as the server sent it, from its <main> on: its scripts (the RSC payload, the dehydrated queries) left out, entities decoded. */
async function firstMarkup(path: string, as: APIRequestContext = request): Promise<string> {
  const response = await as.get(appUrl(path));
  expect(response.status(), path).toBe(200);
  const html = await response.text();
  // from <main> to the end: a Suspense boundary's content streams in the same response after it, in a hidden <div> an inline script moves into place
  const main = html.slice(html.indexOf("<main"));
  expect(html.indexOf("<main"), `${path} has a <main>`).toBeGreaterThan(0);
  return main
    .replace(/<script\b[\s\S]*?<\/script>/g, "")
    .replace(/<!-- -->/g, "")
    .replace(/&amp;/g, "&")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'");
}

describe("the first HTML of each page carries its data", () => {
  it("environments, jobs, imports and the API reference", async () => {
    const task = await api<{ id: string; environment: { id: string } }>("/api/v1/tasks/demo__calc-1");
    const environment = await api<{ id: string; key: string; revisions: unknown[] }>(
      `/api/v1/environments/${task.environment.id}`,
    );

    // the environment list: the row of a seeded environment, found by its key, first row marked for the skip link
    const list = await firstMarkup(`/environments?q=${encodeURIComponent(environment.key)}`);
    expect(list).toContain(`href="/environments/${environment.id}"`);
    expect(list).toContain(`>${environment.key}</a>`);
    expect(list).toContain("data-skip-target");
    expect(list).not.toContain("Loading");
    // the whole first page inline in <main>, not a fallback revealed later by a script
    const all = await firstMarkup("/environments");
    expect(all.slice(0, all.indexOf("</main>"))).toContain(`href="/environments/${environment.id}"`);
    expect(all).not.toContain("Loading");
    // a malformed filter renders the page without rows; the client says what is wrong
    expect(await firstMarkup("/environments?source=NOT_A_SOURCE")).toContain("Environments");

    // one environment: its key, its revisions and its image builds
    const detail = await firstMarkup(`/environments/${environment.id}`);
    expect(detail).toContain(`>${environment.key}</h1>`);
    expect(detail).toContain(`Revisions (${environment.revisions.length})`);
    expect(detail).toContain('data-testid="build-panel"');
    expect(detail).not.toContain("Loading");
    // an unknown one renders too; the client shows the API's 404
    expect((await request.get(appUrl("/environments/no-such-environment"))).status()).toBe(200);

    // the jobs page: its tables, the run counts in its header
    const jobs = await firstMarkup("/jobs");
    expect(jobs).toMatch(/\d+ queued · \d+ running · \d+ failed in 24 h/);
    expect(jobs).toContain("Queue (graphile-worker)");

    // a task's validation and an environment's builds on their own pages
    const validation = await firstMarkup(`/jobs/tasks/${task.id}`);
    expect(validation).toContain('data-testid="validation-panel"');
    expect(validation).not.toContain("Loading validations");
    const builds = await firstMarkup(`/jobs/environments/${environment.id}`);
    expect(builds).toContain('data-testid="build-panel"');
    expect(builds).not.toContain("Loading builds");

    // the import history: its newest batch, or the sentence for none
    const history = await api<{ items: { fileName: string }[] }>("/api/v1/imports?limit=25");
    const imports = await firstMarkup("/imports");
    expect(imports).toContain(history.items[0]?.fileName ?? "No imports yet.");
    expect(imports).not.toContain("Loading…");

    // the API reference: every route with its summary, before Swagger UI loads
    const reference = await firstMarkup("/settings/api");
    expect(reference).toContain("/api/v1/environments/{id}");
    expect(reference).toContain("One environment with its revisions");
  });

  it("reviewers, agreement, campaigns, analytics, users and API tokens", async () => {
    const scores = await api<{ items: { reviewer: string }[] }>("/api/v1/reviewers/scores");
    const reviewers = await firstMarkup("/reviewers");
    expect(reviewers).toContain(scores.items[0]?.reviewer ?? "No reviewer verdicts yet");
    expect(reviewers).not.toContain("Scoring reviewers");

    const agreement = await firstMarkup("/agreement");
    expect(agreement).toContain('aria-label="Curation settings"');
    expect(agreement).toContain('data-testid="agreement-summary"');

    // the demo campaign, which the demo curator labels: in the list, and its page
    const campaigns = await api<{ items: { id: string; name: string }[] }>("/api/v1/campaigns");
    const campaign = campaigns.items.find((c) => c.name === "SWE-bench Verified-style review (demo)");
    expect(campaign).toBeDefined();
    expect(await firstMarkup("/campaigns")).toContain(`>${campaign!.name}<`);
    const overview = await firstMarkup(`/campaigns/${campaign!.id}`);
    expect(overview).toContain(`>${campaign!.name}</h1>`);
    expect(overview).not.toContain("Loading the campaign");

    expect(await firstMarkup("/analytics/funnel")).toContain('data-testid="funnel-table"');
    expect(await firstMarkup("/analytics/reviewers")).toContain('data-testid="reviewer-table"');
    for (const page of ["/analytics/generated-tests", "/analytics/verifiability"])
      expect(await firstMarkup(page)).not.toContain("Computing…");
    // a filter the route refuses: the page renders, and the client shows the API's answer
    expect(await firstMarkup("/analytics/funnel?source=NOT_A_SOURCE")).toContain("Validation funnel");

    expect(await firstMarkup("/admin/users", admin.request)).toContain("curator@swe-curator.local");
    expect(await firstMarkup("/campaigns/rubrics", admin.request)).toContain(">SWE-bench Verified</span>");

    // the step labels with their counts, and the steps given the chosen one
    const labels = await api<{ items: { label: string; count: number }[] }>("/api/v1/trajectories/labels");
    const label = labels.items[0]?.label;
    expect(label).toBeDefined();
    const labelPage = await firstMarkup(`/trajectories/labels?label=${encodeURIComponent(label!)}`);
    expect(labelPage).toContain(`${label} (${labels.items[0].count})`);
    expect(labelPage).toContain(`aria-label="Steps labelled ${label}"`);

    // two trajectories aligned: the summary and the first aligned rows (the virtual list assumes the server's viewport)
    const traced = await api<{ trajectories: { id: string }[] }>("/api/v1/tasks/pydicom__pydicom-1458");
    const [a, b = a] = traced.trajectories;
    const compare = await firstMarkup(`/trajectories/compare?a=${a.id}&b=${b.id}`);
    expect(compare).toContain('data-testid="alignment-summary"');
    expect(compare).toMatch(/role="row" data-same="(true|false)"/);

    // steps of any trajectory matching words, marked; the demo's failed runs grouped
    expect(await firstMarkup("/trajectories/search?q=PixelRepresentation")).toMatch(
      /<mark[^>]*>PixelRepresentation<\/mark>/,
    );
    expect(await firstMarkup("/trajectories/search?tab=clusters")).toContain("command not found");

    const created = await request.post(appUrl("/api/v1/tokens"), {
      data: { name: "first-html token", scopes: ["read"], expiresInDays: 30 },
    });
    expect(created.status(), await created.text()).toBe(201);
    expect(await firstMarkup("/settings/tokens")).toContain(">first-html token</span>");
  });

  it("a page whose data came with the HTML hydrates without a mismatch", async () => {
    const task = await api<{ id: string; environment: { id: string } }>("/api/v1/tasks/demo__calc-1");
    const page = await admin.newPage();
    const problems: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error" && /hydrat|#418|#423|#425/i.test(message.text()))
        problems.push(`${page.url()}: ${message.text()}`);
    });
    page.on("pageerror", (error) => problems.push(`${page.url()}: ${error.message}`));
    const paths = [
      "/environments",
      `/environments/${task.environment.id}`,
      "/jobs",
      `/jobs/tasks/${task.id}`,
      `/jobs/environments/${task.environment.id}`,
      "/imports",
      "/settings/api",
      "/reviewers",
      "/agreement",
      "/campaigns",
      "/analytics/funnel",
      "/analytics/reviewers",
      "/analytics/generated-tests",
      "/analytics/verifiability",
      "/admin/users",
      "/settings/tokens",
      "/campaigns/rubrics",
      "/trajectories/labels",
      "/trajectories/search?q=PixelRepresentation",
      "/trajectories/search?tab=clusters",
    ];
    const traced = await api<{ trajectories: { id: string }[] }>("/api/v1/tasks/pydicom__pydicom-1458");
    paths.push(
      `/trajectories/compare?a=${traced.trajectories[0].id}&b=${(traced.trajectories[1] ?? traced.trajectories[0]).id}`,
    );
    for (const path of paths) {
      await page.goto(appUrl(path));
      await page.waitForLoadState("networkidle");
    }
    await page.close();
    expect(problems).toEqual([]);
  });
});
