import { defineRoute, parseBody } from "@/lib/http/define-route";
import { prisma } from "@/lib/db/client";
import { PERMISSIONS } from "@/lib/auth/permissions";
import { ResetPasswordSchema, resetPassword } from "@/lib/auth/password-change";

/** An admin resets a user's password (generated and returned once when none is given); their sessions end. */
export const POST = defineRoute<{ id: string }>(PERMISSIONS["users:manage"], async ({ request, actor, params }) =>
  resetPassword(prisma, actor, params.id, await parseBody(request, ResetPasswordSchema)),
);
