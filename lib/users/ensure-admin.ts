import { randomBytes } from "node:crypto";
import type { Db } from "../db/client";
import { hashPassword } from "../auth/passwords";
import { auditLog } from "../audit/audit-log";
import { configFrom, type EnvironmentSource } from "../config/server-config";
import { rolesWith } from "../auth/permissions";

export type BootstrapResult =
  { created: false } | { created: true; email: string; password: string; generated: boolean };

/**
 * On a database with no admin, creates one from ADMIN_EMAIL / ADMIN_PASSWORD, or with a
 * generated password that the caller prints once (only its hash is stored).
 */
export async function ensureAdmin(db: Db, source?: EnvironmentSource): Promise<BootstrapResult> {
  if (await db.user.count({ where: { role: { in: rolesWith("users:manage") } } })) return { created: false };
  const config = configFrom(source);
  const email = config.ADMIN_EMAIL.trim().toLowerCase();
  const generated = !config.ADMIN_PASSWORD;
  const password = config.ADMIN_PASSWORD ?? randomBytes(12).toString("base64url");
  const user = await db.user.upsert({
    where: { email },
    create: { email, name: "Admin", role: "ADMIN", passwordHash: await hashPassword(password) },
    update: { role: "ADMIN", passwordHash: await hashPassword(password), disabled: false },
  });
  await auditLog(db, {
    actorId: null,
    entityType: "user",
    entityId: user.id,
    action: "bootstrap_admin",
    after: { email, role: "ADMIN" },
  });
  return { created: true, email, password, generated };
}
