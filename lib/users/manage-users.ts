import { z } from "zod";
import type { Db } from "../db/client";
import { AppError, notFound } from "../errors/app-error";
import { can, ROLES, rolesWith } from "../auth/permissions";
import { hashPassword, passwordPolicyProblem } from "../auth/passwords";
import { auditLog } from "../audit/audit-log";
import type { Actor } from "../auth/actor";

const publicUser = { id: true, email: true, name: true, role: true, disabled: true, createdAt: true } as const;

export function listUsers(db: Db) {
  return db.user.findMany({ select: publicUser, orderBy: { createdAt: "asc" } });
}

export const UpdateUserSchema = z
  .object({ role: z.enum(ROLES).optional(), disabled: z.boolean().optional() })
  .refine((v) => v.role !== undefined || v.disabled !== undefined, "Give a role or disabled");
export type UpdateUserInput = z.infer<typeof UpdateUserSchema>;

export async function updateUser(db: Db, actor: Actor, userId: string, input: UpdateUserInput) {
  const before = await db.user.findUnique({ where: { id: userId }, select: publicUser });
  if (!before) throw notFound("That user");
  // the last person who may manage users cannot lock everyone out of it
  const demotesSelf = userId === actor.id && ((input.role && !can(input.role, "users:manage")) || input.disabled);
  if (
    demotesSelf &&
    (await db.user.count({ where: { role: { in: rolesWith("users:manage") }, disabled: false } })) <= 1
  ) {
    throw new AppError("CONFLICT", "You are the last admin: promote someone else before changing your own role");
  }
  const after = await db.user.update({ where: { id: userId }, data: input, select: publicUser });
  await auditLog(db, { actorId: actor.id, entityType: "user", entityId: userId, action: "update", before, after });
  return after;
}

export const CreateUserSchema = z.object({
  email: z.string().trim().toLowerCase().email(),
  name: z.string().trim().max(200).optional(),
  role: z.enum(ROLES),
  // the one password policy (lib/auth/passwords.ts), as for a change or a reset
  password: z.string().superRefine((password, ctx) => {
    const problem = passwordPolicyProblem(password);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  }),
});
export type CreateUserInput = z.infer<typeof CreateUserSchema>;

export async function createUser(db: Db, actor: Actor | null, input: CreateUserInput) {
  if (await db.user.findUnique({ where: { email: input.email } })) {
    throw new AppError("CONFLICT", `A user with the email ${input.email} already exists`);
  }
  const user = await db.user.create({
    data: {
      email: input.email,
      name: input.name ?? null,
      role: input.role,
      passwordHash: await hashPassword(input.password),
    },
    select: publicUser,
  });
  await auditLog(db, {
    actorId: actor?.id ?? null,
    entityType: "user",
    entityId: user.id,
    action: "create",
    after: user,
  });
  return user;
}
