import { chromium, type Browser, type Page } from "playwright-core";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
// No request may leave the machine: Chromium's background services are switched off.
const ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-dev-shm-usage",
];

/** Debian's headless Chromium, for tests and benchmarks alike (playwright-core gives each launch a fresh temporary profile). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: ARGS });
}

/** Signs in through the real sign-in form of the app at baseUrl. */
export async function signInThroughForm(page: Page, baseUrl: string, user: { email: string; password: string }) {
  await page.goto(new URL("/signin", baseUrl).toString());
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL((url) => !url.pathname.startsWith("/signin"), { timeout: 30_000 });
}
