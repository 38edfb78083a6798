import { z } from "zod";
import { defineRoute, parseBody } from "@/lib/http/define-route";
import { prisma } from "@/lib/db/client";
import { PERMISSIONS } from "@/lib/auth/permissions";
import { deleteView, renameView } from "@/lib/views/saved-views";

const RenameViewSchema = z.object({ name: z.string().trim().min(1).max(100) });

export const PATCH = defineRoute<{ id: string }>(PERMISSIONS["views:save"], async ({ request, actor, params }) =>
  renameView(prisma, actor.id, params.id, (await parseBody(request, RenameViewSchema)).name),
);

export const DELETE = defineRoute<{ id: string }>(PERMISSIONS["views:save"], async ({ actor, params }) => {
  await deleteView(prisma, actor.id, params.id);
  return { deleted: true };
});
