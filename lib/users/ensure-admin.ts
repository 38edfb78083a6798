import { randomBytes } from "node:crypto";
import type { Db } from "../db/client";
import { hashPassword } from "../auth/passwords";
import { auditLog } from "../audit/audit-log";

export type BootstrapResult = { created: false } | { created: true; email: string; password: string; generated: boolean };

/**
 * On a database with no admin, creates one from ADMIN_EMAIL / ADMIN_PASSWORD, or with a
 * generated password that the caller prints once (only its hash is stored).
 */
export async function ensureAdmin(db: Db, env: Record<string, string | undefined> = process.env): Promise<BootstrapResult> {
  if (await db.user.count({ where: { role: "ADMIN" } })) return { created: false };
  const email = (env.ADMIN_EMAIL ?? "admin@swe-curator.local").trim().toLowerCase();
  const generated = !env.ADMIN_PASSWORD;
  const password = env.ADMIN_PASSWORD ?? randomBytes(12).toString("base64url");
  const user = await db.user.upsert({
    where: { email },
    create: { email, name: "Admin", role: "ADMIN", passwordHash: await hashPassword(password) },
    update: { role: "ADMIN", passwordHash: await hashPassword(password), disabled: false },
  });
  await auditLog(db, { actorId: null, entityType: "user", entityId: user.id, action: "bootstrap_admin", after: { email, role: "ADMIN" } });
  return { created: true, email, password, generated };
}
