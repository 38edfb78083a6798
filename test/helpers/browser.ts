import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { inject } from "vitest";
import { E2E_PASSWORDS } from "./e2e-server";

export const E2E_USERS = {
  admin: { email: "admin@swe-curator.local", password: E2E_PASSWORDS.admin },
  curator: { email: "curator@swe-curator.local", password: E2E_PASSWORDS.demo },
  viewer: { email: "viewer@swe-curator.local", password: E2E_PASSWORDS.demo },
};
export type E2eRole = keyof typeof E2E_USERS;

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
// No request may leave the machine: Chromium's background services are switched off.
const ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage"];

export async function launchBrowser(): Promise<Browser & { cleanup(): Promise<void> }> {
  const userDataDir = mkdtempSync(path.join(tmpdir(), "swe-curator-chromium-"));
  // playwright-core 1.65 refuses --user-data-dir with launch(); it gives each launch a fresh temporary profile itself
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ARGS });
  return Object.assign(browser, {
    async cleanup() {
      await browser.close();
      rmSync(userDataDir, { recursive: true, force: true });
    },
  });
}

export const appUrl = (pathname = "/") => new URL(pathname, inject("appUrl")).toString();

/** A new context signed in through the real sign-in form. */
export async function signedInPage(browser: Browser, role: E2eRole): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL: inject("appUrl") });
  const page = await context.newPage();
  await signIn(page, role);
  return { context, page };
}

export async function signIn(page: Page, role: E2eRole) {
  const user = E2E_USERS[role];
  await page.goto(appUrl("/signin"));
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL((url) => !url.pathname.startsWith("/signin"), { timeout: 30_000 });
}
