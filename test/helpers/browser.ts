import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, inject } from "vitest";
import { E2E_PASSWORDS } from "./e2e-server";
import { launchChromium, signInThroughForm } from "./chromium";

export const E2E_USERS = {
  admin: { email: "admin@swe-curator.local", password: E2E_PASSWORDS.admin },
  curator: { email: "curator@swe-curator.local", password: E2E_PASSWORDS.demo },
  viewer: { email: "viewer@swe-curator.local", password: E2E_PASSWORDS.demo },
};
export type E2eRole = keyof typeof E2E_USERS;

export async function launchBrowser(): Promise<Browser & { cleanup(): Promise<void> }> {
  const userDataDir = mkdtempSync(path.join(tmpdir(), "swe-curator-chromium-"));
  // playwright-core 1.65 refuses --user-data-dir with launch(); it gives each launch a fresh temporary profile itself
  const browser = await launchChromium();
  return Object.assign(browser, {
    async cleanup() {
      await browser.close();
      rmSync(userDataDir, { recursive: true, force: true });
    },
  });
}

/** One Chromium for the test file that calls this: launched before its tests, closed after them. */
export function browserForFile(): { readonly browser: Browser } {
  let browser: Awaited<ReturnType<typeof launchBrowser>> | undefined;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => browser?.cleanup());
  return {
    get browser() {
      if (!browser) throw new Error("Chromium is not running: use browserForFile().browser inside a test");
      return browser;
    },
  };
}

export const appUrl = (pathname = "/") => new URL(pathname, inject("appUrl")).toString();

/** A new context signed in through the real sign-in form. */
export async function signedInPage(browser: Browser, role: E2eRole): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL: inject("appUrl") });
  const page = await context.newPage();
  await signIn(page, role);
  return { context, page };
}

export function signIn(page: Page, role: E2eRole) {
  return signInThroughForm(page, inject("appUrl"), E2E_USERS[role]);
}
