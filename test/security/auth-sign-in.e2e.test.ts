import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appUrl, launchBrowser, signedInPage, E2E_USERS } from "../helpers/browser";
import { SIGN_IN_LIMITS } from "../../lib/auth/sign-in-throttle";

// Issue 10, items 6 and 7 against the running product: guessing passwords over HTTP,
// and a sign-in link whose callbackUrl points at another site.

const PASSWORD = "guessing-target-password";
let browser: Awaited<ReturnType<typeof launchBrowser>>;

const cookiePairs = (response: Response) => response.headers.getSetCookie().map((line) => line.split(";")[0]);

/** One password sign-in the way next-auth's client posts it, from a given client address. */
async function attempt(email: string, password: string, address: string) {
  const csrf = await fetch(appUrl("/api/auth/csrf"));
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  return fetch(appUrl("/api/auth/callback/credentials"), {
    method: "POST",
    redirect: "manual",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      cookie: cookiePairs(csrf).join("; "),
      "x-forwarded-for": address,
    },
    body: new URLSearchParams({ email, password, csrfToken, json: "true", callbackUrl: appUrl("/tasks") }),
  });
}

beforeAll(async () => {
  browser = await launchBrowser();
  // a target of its own, so the lock below cannot disturb other e2e files' sign-ins
  const { context } = await signedInPage(browser, "admin");
  const created = await context.request.post(appUrl("/api/v1/users"), {
    data: { email: "guessing-target@example.test", role: "CURATOR", password: PASSWORD },
  });
  expect(created.status()).toBe(201);
  await context.close();
});
afterAll(async () => browser?.cleanup());

describe("password guessing", () => {
  it("50 wrong passwords lock the account: the right one is then refused too, from any address", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 50; i++)
      statuses.push((await attempt("guessing-target@example.test", `wrong-guess-${i}`, "198.51.100.7")).status);
    const limit = SIGN_IN_LIMITS.account.maxFailures;
    expect(statuses.slice(0, limit)).toEqual(Array(limit).fill(401));
    expect(new Set(statuses.slice(limit))).toEqual(new Set([429]));

    const right = await attempt("guessing-target@example.test", PASSWORD, "198.51.100.7");
    expect(right.status).toBe(429);
    expect(Number(right.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(cookiePairs(right).some((c) => c.includes("session-token"))).toBe(false);
    const elsewhere = await attempt("guessing-target@example.test", PASSWORD, "203.0.113.9");
    expect(elsewhere.status).toBe(429);
  });

  it("one address spraying one password over many accounts is locked out", async () => {
    const address = "198.51.100.99";
    const statuses: number[] = [];
    for (let i = 0; i < SIGN_IN_LIMITS.address.maxFailures + 2; i++)
      statuses.push((await attempt(`sprayed-${i}@example.test`, "Winter2026!", address)).status);
    expect(statuses.slice(0, SIGN_IN_LIMITS.address.maxFailures)).toEqual(
      Array(SIGN_IN_LIMITS.address.maxFailures).fill(401),
    );
    expect(statuses.slice(SIGN_IN_LIMITS.address.maxFailures)).toEqual([429, 429]);
    // another address still signs in
    expect((await attempt(E2E_USERS.viewer.email, E2E_USERS.viewer.password, "198.51.100.100")).status).toBe(200);
  });
});

describe("the sign-in redirect", () => {
  it.each([
    "//evil.example/phish",
    "/\\evil.example/phish",
    "https://evil.example/",
    "/\t/evil.example",
    "javascript:alert(1)",
  ])("callbackUrl=%s stays on this site after signing in", async (callbackUrl) => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const leaving: string[] = [];
    page.on("request", (request) => {
      if (!request.url().startsWith(appUrl("/"))) leaving.push(request.url());
    });
    await page.goto(appUrl(`/signin?callbackUrl=${encodeURIComponent(callbackUrl)}`));
    await page.getByLabel("Email").fill(E2E_USERS.viewer.email);
    await page.getByLabel("Password").fill(E2E_USERS.viewer.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL((url) => !url.pathname.startsWith("/signin"), { timeout: 30_000 });
    expect(new URL(page.url()).origin).toBe(new URL(appUrl("/")).origin);
    expect(leaving).toEqual([]);
    await context.close();
  });
});
