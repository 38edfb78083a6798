// npm run bench:pages — every page type in headless Chromium against the production build:
// time until the page's main content is on screen and the JavaScript it loads, each set
// against the server's own response time for the same page measured in the same run (the
// HTML fetched directly, no browser). A ratio near 1 means the page shows its content as
// soon as the server has answered; the absolute figures are printed beside it.
// Writes docs/bench-results/pages.json for npm run bench:report: each page type's main content
// against the server's response for the same page, the slowest of them (target < 300 ms every
// page), and the slowest in a new tab against the browser's floor page in a new tab.
// Usage: npm run bench:pages [-- --runs 9] [-- --only "run log,task evidence"] (--only: those
// pages alone, printed and not written, to try a change to one page quickly)

import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import type { BrowserContext, Page, Response } from "playwright-core";
import { spawnApp } from "../helpers/e2e-server";
import { launchChromium, signInThroughForm } from "../helpers/chromium";
import { SIGNED_OUT_TOUR, signedInTour, tourIds, type TourPage } from "../helpers/page-tour";
import { timeWhenShown } from "./shown-at";
import { machineState, writeBenchResults, type Figure } from "./results";

const args = process.argv.slice(2);
// Nine loads: across runs of three, the median of a page no change touched moved by 100 ms
// (204–324 ms); the middle half of nine is reported beside each median, so a change can be
// told from the noise. A new tab's load is context with no target: three of those.
const RUNS = Number(args[args.indexOf("--runs") + 1] || 0) || 9;
const NEW_TAB_RUNS = Math.min(RUNS, 3);
const ONLY = args.includes("--only") ? args[args.indexOf("--only") + 1].split(",").map((name) => name.trim()) : null;
const chosen = (tourPage: TourPage) => !ONLY || ONLY.some((name) => tourPage.name.startsWith(name));
const ADMIN = { email: "admin@swe-curator.local", password: "bench-pages-admin-password" };

/** The value at fraction `q` of the sorted values (nearest rank). */
const quantile = (values: number[], q: number) =>
  [...values].sort((a, b) => a - b)[Math.round(q * (values.length - 1))];
const median = (values: number[]) => quantile(values, 0.5);

/** `npm start`'s own script (build if stale, embedded PostgreSQL, demo seed), without a worker. */
function startApp(dataDir: string) {
  return spawnApp(dataDir, {
    NEXTAUTH_SECRET: "bench-pages-secret",
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    START_WORKER: "0",
  });
}

/** The server's own time for the page: its full HTML fetched directly with the session cookie. */
async function serverMs(url: string, cookie: string): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < RUNS + 1; i++) {
    const started = performance.now();
    const response = await fetch(url, { headers: { cookie }, redirect: "manual" });
    await response.text();
    if (i > 0) times.push(performance.now() - started); // the first request warms the route
  }
  return median(times);
}

type Measure = {
  mainMs: number;
  inDomMs: number;
  firstByteMs: number;
  paintMs: number;
  jsBytes: number;
  monaco: boolean;
};

/** When the browser had the HTML's first byte, first painted and had the main content in the DOM, on the page's own clock (ms since navigation began). */
const NAVIGATION_TIMES = `(() => {
  const navigation = performance.getEntriesByType("navigation")[0];
  const paint = performance.getEntriesByName("first-contentful-paint")[0];
  return { firstByteMs: navigation ? navigation.responseStart : NaN, paintMs: paint ? paint.startTime : NaN, inDomMs: window.__inDomAt };
})()`;

/** One load of the page in a tab that timeWhenShown already watches. */
async function loadOnce(
  page: Page,
  baseUrl: string,
  tourPage: TourPage,
  mainContentAt: (timeout?: number) => Promise<number>,
): Promise<Measure> {
  let jsBytes = 0;
  const bodies: Promise<void>[] = [];
  const countScript = (response: Response) => {
    if (response.request().resourceType() !== "script") return;
    bodies.push(
      response.body().then(
        (body) => void (jsBytes += body.length),
        () => undefined,
      ),
    );
  };
  page.on("response", countScript);
  const url = new URL(tourPage.path, baseUrl);
  // going to the URL the tab is on, with a fragment, only scrolls: the page would not load again.
  // So the tab first goes to a small page of the same site, as a curator comes from the task page:
  // about:blank is another site, whose navigation back swaps the tab's renderer (a trace showed
  // 130 ms of a new renderer's start before the first byte was parsed, and a cold first layout)
  if (url.hash) await page.goto(new URL("/icon.svg", baseUrl).toString());
  await page.goto(url.toString());
  const mainMs = await mainContentAt(60_000);
  await page.waitForLoadState("networkidle");
  await Promise.all(bodies);
  page.off("response", countScript);
  const times = (await page.evaluate(NAVIGATION_TIMES)) as Pick<Measure, "firstByteMs" | "paintMs" | "inDomMs">;
  return { mainMs, ...times, jsBytes, monaco: (await page.locator(".monaco-editor").count()) > 0 };
}

async function watchedTab(context: BrowserContext, tourPage: TourPage) {
  const page = await context.newPage();
  return { page, mainContentAt: await timeWhenShown(page, tourPage.ready) };
}

/**
 * Loads in one tab, as a curator reloads a page or opens it from another page of the app (the
 * tab's renderer is up); and loads each in a new tab, which adds the browser's own start of a
 * renderer and a document before the first byte is parsed.
 */
async function measurePage(context: BrowserContext, baseUrl: string, cookie: string, tourPage: TourPage) {
  const server = await serverMs(new URL(tourPage.path, baseUrl).toString(), cookie);
  const tab = await watchedTab(context, tourPage);
  await loadOnce(tab.page, baseUrl, tourPage, tab.mainContentAt); // warm-up: the server's first render of the route, the browser's cache
  const runs: Measure[] = [];
  for (let i = 0; i < RUNS; i++) runs.push(await loadOnce(tab.page, baseUrl, tourPage, tab.mainContentAt));
  await tab.page.close();
  const newTabMs: number[] = [];
  for (let i = 0; i < NEW_TAB_RUNS; i++) {
    const fresh = await watchedTab(context, tourPage);
    newTabMs.push((await loadOnce(fresh.page, baseUrl, tourPage, fresh.mainContentAt)).mainMs);
    await fresh.page.close();
  }
  const medianOf = (key: keyof Omit<Measure, "monaco">) => median(runs.map((r) => r[key]));
  return {
    name: tourPage.name,
    serverMs: server,
    mainMs: medianOf("mainMs"),
    mainSpread: {
      low: quantile(
        runs.map((r) => r.mainMs),
        0.25,
      ),
      high: quantile(
        runs.map((r) => r.mainMs),
        0.75,
      ),
    },
    inDomMs: medianOf("inDomMs"),
    firstByteMs: medianOf("firstByteMs"),
    paintMs: medianOf("paintMs"),
    jsBytes: medianOf("jsBytes"),
    newTabMs: median(newTabMs),
    monaco: runs.some((r) => r.monaco),
  };
}

/**
 * The browser's own floor: a one-line HTML page from a bare HTTP server, no script, no
 * stylesheet. What it takes is what no page of the app could take less than.
 */
async function startFloorPage() {
  const server = createServer((_request, response) =>
    response
      .writeHead(200, { "content-type": "text/html" })
      .end("<!doctype html><title>floor</title><main>floor</main>"),
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() };
}

async function main() {
  const atStart = machineState();
  const dataDir = mkdtempSync(path.join(tmpdir(), "swe-curator-bench-pages-"));
  const { url, child } = await startApp(dataDir);
  const browser = await launchChromium();
  try {
    const signedOut = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const signedIn = await browser.newContext({ baseURL: url, viewport: { width: 1280, height: 800 } });
    const signInPage = await signedIn.newPage();
    await signInThroughForm(signInPage, url, ADMIN);
    const tour = signedInTour(await tourIds(signInPage));
    await signInPage.close();
    const cookie = (await signedIn.cookies()).map((c) => `${c.name}=${c.value}`).join("; ");

    const rows = [];
    for (const tourPage of tour.filter(chosen)) rows.push(await measurePage(signedIn, url, cookie, tourPage));
    for (const tourPage of SIGNED_OUT_TOUR.filter(chosen)) rows.push(await measurePage(signedOut, url, "", tourPage));
    const floor = await startFloorPage();
    const floorRow = await measurePage(signedOut, floor.url, "", {
      name: "browser floor",
      path: "/",
      ready: `!!document.querySelector("main")`,
    });
    floor.close();

    console.log(
      `\nbench:pages — median of ${RUNS} loads per page in headless Chromium (1280×800, warm cache), production build on localhost`,
    );
    console.log(
      "server = the page's HTML fetched directly; first byte, in DOM, first paint, main = ms since the navigation began, loads in one tab;",
    );
    console.log(
      `main = the first frame with the page's own content (in the DOM, and the browser free to paint it); middle half = main's 25th to 75th percentile; new tab = main when each of ${NEW_TAB_RUNS} loads opens a new tab\n`,
    );
    console.log(
      [
        "page".padEnd(18),
        "server ms",
        "first byte",
        "in DOM",
        "first paint",
        "main ms",
        "middle half",
        "main/server",
        "new tab ms",
        "JS KiB",
        "Monaco loaded",
      ].join("  "),
    );
    for (const r of [...rows, floorRow]) {
      console.log(
        [
          r.name.padEnd(18),
          r.serverMs.toFixed(0).padStart(9),
          r.firstByteMs.toFixed(0).padStart(10),
          r.inDomMs.toFixed(0).padStart(6),
          r.paintMs.toFixed(0).padStart(11),
          r.mainMs.toFixed(0).padStart(7),
          `${r.mainSpread.low.toFixed(0)}–${r.mainSpread.high.toFixed(0)}`.padStart(11),
          `${(r.mainMs / r.serverMs).toFixed(1)}×`.padStart(11),
          r.newTabMs.toFixed(0).padStart(10),
          (r.jsBytes / 1024).toFixed(0).padStart(6),
          (r.monaco ? "yes" : "no").padStart(13),
        ].join("  "),
      );
    }
    const worst = rows.reduce((a, b) => (b.mainMs > a.mainMs ? b : a));
    const slowTab = rows.reduce((a, b) => (b.newTabMs > a.newTabMs ? b : a));
    console.log(
      `\nslowest main content: ${worst.name}, ${worst.mainMs.toFixed(0)} ms (${(worst.mainMs / worst.serverMs).toFixed(1)}× its server response); target < 300 ms on localhost: ${worst.mainMs < 300 ? "met" : "NOT met"}`,
    );
    console.log(
      `slowest in a new tab: ${slowTab.name}, ${slowTab.newTabMs.toFixed(0)} ms (${(slowTab.newTabMs / slowTab.mainMs).toFixed(1)}× its load in an open tab; ${(slowTab.newTabMs / floorRow.newTabMs).toFixed(1)}× the browser floor's ${floorRow.newTabMs.toFixed(0)} ms in a new tab)`,
    );
    const serverName = "the server's response for the same page (its HTML fetched directly), median";
    const mainFigure = (r: Awaited<ReturnType<typeof measurePage>>, label: string): Figure => ({
      figure: `${label}, main content, median of ${RUNS}`,
      measured: r.mainMs,
      spread: r.mainSpread,
      baselineName: serverName,
      baseline: r.serverMs,
      unit: "ms",
      target: "< 300 ms",
      met: r.mainMs < 300,
    });
    const figures: Figure[] = [
      // signed in and signed out both have a "not found" page: a figure names which
      ...rows.map((r, i) => mainFigure(r, `page ${r.name}${i < tour.length ? "" : " (signed out)"}`)),
      mainFigure(worst, `slowest page (${worst.name}${rows.indexOf(worst) < tour.length ? "" : ", signed out"})`),
      {
        figure: `slowest page in a new tab (${slowTab.name}${rows.indexOf(slowTab) < tour.length ? "" : ", signed out"}), main content, median of ${NEW_TAB_RUNS}`,
        measured: slowTab.newTabMs,
        baselineName: "the browser floor page (one line of HTML) in a new tab, median",
        baseline: floorRow.newTabMs,
        unit: "ms",
        target: "none (the browser's own start of a tab is in it)",
        met: null,
      },
    ];
    if (ONLY) console.log("\n--only: a part of the tour, not written to docs/bench-results");
    else writeBenchResults("pages", figures, atStart, { runs: RUNS });
  } finally {
    await browser.close();
    await new Promise<void>((resolve) => {
      child.once("exit", () => resolve());
      process.kill(-child.pid!, "SIGTERM");
      setTimeout(resolve, 15_000).unref();
    });
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
