import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appUrl, launchBrowser, signedInPage } from "../helpers/browser";
import { findings, watchScriptsAndPolicy } from "./browser-probe";

// Issue 10, item 8: every page type carries the security headers, the CSP lets only our
// own nonce'd scripts run, and Monaco (workers, inline styles) still works under it.

let browser: Awaited<ReturnType<typeof launchBrowser>>;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => browser?.cleanup());

function expectCommonHeaders(headers: Record<string, string>, what: string) {
  expect(headers["x-content-type-options"], what).toBe("nosniff");
  expect(headers["referrer-policy"], what).toBe("strict-origin-when-cross-origin");
  expect(headers["x-frame-options"], what).toBe("DENY");
}

function expectPagePolicy(headers: Record<string, string>, what: string): string {
  const csp = headers["content-security-policy"] ?? "";
  expect(csp, what).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+' 'strict-dynamic'(;|$)/);
  expect(csp, what).not.toMatch(/script-src[^;]*'unsafe-inline'/);
  expect(csp, what).not.toMatch(/'unsafe-eval'/);
  expect(csp, what).toContain("frame-ancestors 'none'");
  expect(csp, what).toContain("worker-src 'self' blob:");
  expect(csp, what).toContain("object-src 'none'");
  return csp.match(/'nonce-([^']+)'/)![1];
}

describe("security headers", () => {
  it("every page type sends a nonce CSP (a fresh nonce each time), nosniff, Referrer-Policy and frame-ancestors none", async () => {
    const { context, page } = await signedInPage(browser, "admin");
    const task = (await (await context.request.get(appUrl("/api/v1/tasks/demo__calc-1"))).json()) as {
      id: string;
      environmentId: string;
      trajectories: { id: string }[];
    };
    const pages = [
      "/tasks",
      `/tasks/${task.id}`,
      "/environments",
      `/environments/${task.environmentId}`,
      `/trajectories/${task.trajectories[0].id}`,
      "/review",
      "/agreement",
      "/reviewers",
      "/imports",
      "/jobs",
      "/admin/users",
      "/settings/tokens",
      "/settings/account",
      "/forbidden",
      "/no-such-page",
    ];
    const nonces = new Set<string>();
    for (const path of pages) {
      const response = await page.goto(appUrl(path));
      const headers = response!.headers();
      expectCommonHeaders(headers, path);
      nonces.add(expectPagePolicy(headers, path));
      // Next put the same nonce on the scripts it inlined
      const scriptNonces = await page.evaluate(() => [...document.querySelectorAll("script")].map((s) => s.nonce));
      expect(scriptNonces.length, path).toBeGreaterThan(0);
    }
    expect(nonces.size).toBe(pages.length);
    await context.close();

    const anonymous = await fetch(appUrl("/signin"));
    expectCommonHeaders(Object.fromEntries(anonymous.headers), "/signin");
    expectPagePolicy(Object.fromEntries(anonymous.headers), "/signin");
    for (const path of ["/api/v1/me", "/api/auth/csrf"]) {
      const api = Object.fromEntries((await fetch(appUrl(path))).headers);
      expectCommonHeaders(api, path);
      expect(api["content-security-policy"], path).toBe("default-src 'none'; frame-ancestors 'none'");
    }
  });

  it("the session cookie is HttpOnly and SameSite=Lax", async () => {
    const { context } = await signedInPage(browser, "viewer");
    const session = (await context.cookies()).find((c) => c.name.endsWith("next-auth.session-token"));
    expect(session).toMatchObject({ httpOnly: true, sameSite: "Lax" });
    await context.close();
  });

  it("Monaco still renders a diff under the policy, with its worker, and nothing is blocked", async () => {
    const { context, page } = await signedInPage(browser, "curator");
    await watchScriptsAndPolicy(context);
    const workers: string[] = [];
    page.on("worker", (worker) => workers.push(worker.url()));
    await page.goto(appUrl("/tasks/demo__calc-1"));
    await page.locator("#patches-section").scrollIntoViewIfNeeded(); // Monaco loads when the diff comes into view
    await page.locator(".monaco-diff-editor").first().waitFor({ timeout: 60_000 });
    await page.locator(".monaco-editor .view-lines").first().waitFor();
    await expect.poll(() => workers.length, { timeout: 30_000 }).toBeGreaterThan(0);
    const seen = await findings(page);
    expect(seen.violations).toEqual([]);
    await context.close();
  });
});
