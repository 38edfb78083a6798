// The block `npm start` prints last, once the first page answers: where to go and who to sign in as.

export type AdminLogin =
  { created: false; email?: string } | { created: true; email: string; password: string; generated: boolean };
export type DemoAccount = { email: string; role: string; annotator: boolean };
/** value: the demo password when this start created the accounts; fromSetting: DEMO_PASSWORD is set */
export type DemoPassword = { value?: string; generated: boolean; fromSetting: boolean };

function adminLine(admin: AdminLogin): string {
  if (!admin.created)
    return `  admin:    ${admin.email ?? "the admin account"} (its password was shown at the first start, or is ADMIN_PASSWORD)`;
  if (!admin.generated) return `  admin:    ${admin.email} / the password in ADMIN_PASSWORD`;
  return `  admin:    ${admin.email} / ${admin.password}   (generated: shown this once, only its hash is stored)`;
}

function demoPasswordText(password: DemoPassword): string {
  if (password.fromSetting) return "the password in DEMO_PASSWORD";
  if (password.value) return `password ${password.value}${password.generated ? "   (generated: shown this once)" : ""}`;
  return "the demo password shown at the first start";
}

function accountLines(accounts: DemoAccount[]): string[] {
  const width = Math.max(...accounts.map((a) => a.email.length));
  return accounts.map(
    (a) =>
      `    ${a.email.padEnd(width)}  ${a.role.toLowerCase()}${a.annotator ? ", annotator in the demo campaign" : ""}`,
  );
}

/** The closing block: URL, admin login, demo accounts (curator, viewer, annotators) and how to stop. */
export function startBanner(
  url: string,
  admin: AdminLogin,
  demo: { accounts: DemoAccount[]; password: DemoPassword; tasks?: number },
): string {
  const lines = ["─".repeat(60), `SWE Curator is up at ${url}`, adminLine(admin)];
  if (demo.accounts.length) {
    lines.push(`  demo accounts, each with ${demoPasswordText(demo.password)}:`, ...accountLines(demo.accounts));
  }
  if (demo.tasks) lines.push(`  demo data: ${demo.tasks} tasks`);
  lines.push("  stop with Ctrl-C", "─".repeat(60));
  return "\n" + lines.join("\n") + "\n";
}
