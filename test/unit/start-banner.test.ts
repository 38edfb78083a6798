import { describe, expect, it } from "vitest";
import { startBanner } from "../../scripts/start-banner";
import { DEMO_USERS } from "../../prisma/seed/seed-demo";
import { DEMO_ANNOTATORS } from "../../lib/campaigns/demo-campaign";

const accounts = [...DEMO_USERS, ...DEMO_ANNOTATORS].map((u) => ({
  email: u.email,
  role: u.role,
  annotator: DEMO_ANNOTATORS.some((a) => a.email === u.email),
}));

describe("the block npm start prints last", () => {
  it("on a first start: the URL, the generated admin login and every demo account, annotators marked, with the demo password", () => {
    const text = startBanner(
      "http://localhost:3000",
      { created: true, email: "admin@x.local", password: "s3cret-admin", generated: true },
      {
        accounts,
        password: { value: "demo-pw", generated: true, fromSetting: false },
        tasks: 12,
      },
    );
    expect(text).toContain("SWE Curator is up at http://localhost:3000");
    expect(text).toMatch(/admin: +admin@x\.local \/ s3cret-admin/);
    expect(text).toContain("password demo-pw");
    for (const account of accounts) expect(text).toContain(account.email);
    expect(text).toMatch(/annotator-a@swe-curator\.local +curator, annotator in the demo campaign/);
    expect(text).toMatch(/viewer@swe-curator\.local +viewer\n/);
    expect(text).toContain("stop with Ctrl-C");
  });

  it("on a later start: no password is invented, the reader is told where it was shown", () => {
    const text = startBanner(
      "http://localhost:3000",
      { created: false, email: "admin@x.local" },
      { accounts, password: { generated: false, fromSetting: false } },
    );
    expect(text).toContain("admin@x.local (its password was shown at the first start, or is ADMIN_PASSWORD)");
    expect(text).toContain("the demo password shown at the first start");
    expect(text).not.toContain("demo data:");
  });

  it("passwords from settings are named, not printed; without demo accounts the block leaves them out", () => {
    const fromSettings = startBanner(
      "http://h",
      { created: true, email: "a@x", password: "hidden", generated: false },
      { accounts, password: { value: "also-hidden", generated: false, fromSetting: true } },
    );
    expect(fromSettings).not.toContain("hidden");
    expect(fromSettings).toContain("ADMIN_PASSWORD");
    expect(fromSettings).toContain("DEMO_PASSWORD");
    const empty = startBanner(
      "http://h",
      { created: false },
      { accounts: [], password: { generated: false, fromSetting: false } },
    );
    expect(empty).not.toContain("demo accounts");
  });
});
