import { randomBytes } from "node:crypto";
import { z } from "zod";
import type { Db } from "../db/client";
import { AppError, notFound } from "../errors/app-error";
import { auditLog } from "../audit/audit-log";
import type { Actor } from "./actor";
import { hashPassword, passwordPolicyProblem, verifyPassword } from "./passwords";
import { recordSignInFailure, recordSignInSuccess, signInLockedUntil } from "./sign-in-throttle";

const RevokeApiTokens = z
  .boolean()
  .default(true)
  .describe("also revoke every API token of the user (default: yes, a token may have leaked with the password)");
export const ChangePasswordSchema = z.object({
  currentPassword: z.string().min(1, "enter your current password"),
  newPassword: z.string(),
  revokeApiTokens: RevokeApiTokens,
});
export const ResetPasswordSchema = z.object({ newPassword: z.string().optional(), revokeApiTokens: RevokeApiTokens });

function assertPolicy(password: string, email: string) {
  const problem = passwordPolicyProblem(password, email);
  if (problem) throw new AppError("BAD_REQUEST", `The new password is too weak: ${problem}.`, { field: "newPassword" });
}

// Bumping the session version voids every session cookie issued before (see actor.ts);
// unless the changer says no, the user's live API tokens are revoked with it.
async function setPassword(db: Db, userId: string, password: string, revokeApiTokens: boolean) {
  const passwordHash = await hashPassword(password);
  return db.$transaction(async (tx) => {
    const user = await tx.user.update({
      where: { id: userId },
      data: { passwordHash, passwordChangedAt: new Date(), sessionVersion: { increment: 1 } },
    });
    const revoked = revokeApiTokens
      ? await tx.apiToken.updateMany({ where: { userId, revokedAt: null }, data: { revokedAt: new Date() } })
      : { count: 0 };
    return { user, apiTokensRevoked: revoked.count };
  });
}

/**
 * A user changes their own password: the current one is checked (and counted like a
 * sign-in, so a stolen session cannot guess it), every other session ends, and the user's
 * API tokens are revoked unless `revokeApiTokens: false`.
 */
export async function changeOwnPassword(db: Db, actor: Actor, input: z.infer<typeof ChangePasswordSchema>) {
  const user = await db.user.findUniqueOrThrow({ where: { id: actor.id } });
  if (!user.passwordHash)
    throw new AppError("CONFLICT", "This account signs in through single sign-on and has no password to change");
  const keys = { account: user.email, address: null };
  if (await signInLockedUntil(db, keys))
    throw new AppError("TOO_MANY_REQUESTS", "Too many wrong passwords for this account; try again in 15 minutes");
  if (!(await verifyPassword(input.currentPassword, user.passwordHash))) {
    await recordSignInFailure(db, keys);
    throw new AppError("FORBIDDEN", "The current password is not right", { field: "currentPassword" });
  }
  assertPolicy(input.newPassword, user.email);
  await recordSignInSuccess(db, keys);
  const { user: updated, apiTokensRevoked } = await setPassword(
    db,
    user.id,
    input.newPassword,
    input.revokeApiTokens ?? true,
  );
  await auditLog(db, {
    actorId: actor.id,
    entityType: "user",
    entityId: user.id,
    action: "change_password",
    after: { sessionVersion: updated.sessionVersion, apiTokensRevoked },
  });
  return { user: updated, apiTokensRevoked };
}

/**
 * An admin sets a new password for a user (generated and shown once when none is given);
 * the user's sessions end and a sign-in lock on the account is lifted.
 */
export async function resetPassword(db: Db, admin: Actor, userId: string, input: z.infer<typeof ResetPasswordSchema>) {
  const user = await db.user.findUnique({ where: { id: userId } });
  if (!user) throw notFound("That user");
  const generated = !input.newPassword;
  const password = input.newPassword ?? randomBytes(12).toString("base64url");
  assertPolicy(password, user.email);
  const { user: updated, apiTokensRevoked } = await setPassword(db, user.id, password, input.revokeApiTokens ?? true);
  await recordSignInSuccess(db, { account: user.email, address: null });
  await auditLog(db, {
    actorId: admin.id,
    entityType: "user",
    entityId: user.id,
    action: "reset_password",
    after: { sessionVersion: updated.sessionVersion, apiTokensRevoked },
  });
  return { userId: user.id, email: user.email, generated, apiTokensRevoked, ...(generated ? { password } : {}) };
}
