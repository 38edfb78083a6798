import { describe, expect, it } from "vitest";
import { appUrl, browserForFile, signedInPage } from "../helpers/browser";

// Issue 27, item 4, against the running product: signing out used to drop the cookie in the
// browser only, so a copy taken before (a shared machine, a proxy log) stayed signed in.

const chromium = browserForFile();

describe("signing out", () => {
  it("ends the session on the server: the copied cookie is refused afterwards", async () => {
    const { context, page } = await signedInPage(chromium.browser, "viewer");
    const session = (await context.cookies()).find((cookie) => cookie.name.endsWith("next-auth.session-token"));
    expect(session).toBeDefined();
    const copied = `${session!.name}=${session!.value}`;
    const asCopy = () => fetch(appUrl("/api/v1/me"), { headers: { cookie: copied } });
    expect((await asCopy()).status).toBe(200);

    await page.goto(appUrl("/tasks"));
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.waitForURL((url) => url.pathname.startsWith("/signin"));
    expect((await asCopy()).status).toBe(401);
    // a page opened with the copy sends it to sign in
    const pageWithCopy = await fetch(appUrl("/tasks"), { headers: { cookie: copied }, redirect: "manual" });
    expect(pageWithCopy.headers.get("location") ?? "").toContain("/signin");
    await context.close();
  });
});
