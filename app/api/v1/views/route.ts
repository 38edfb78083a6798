import { z } from "zod";
import { defineRoute, parseBody, parseQuery } from "@/lib/http/define-route";
import { prisma } from "@/lib/db/client";
import { PERMISSIONS } from "@/lib/auth/permissions";
import { listSavedViews, saveView, SavedViewInputSchema, VIEW_SCOPES } from "@/lib/views/saved-views";

const ListViewsQuerySchema = z.object({ scope: z.enum(VIEW_SCOPES).optional() });

export const GET = defineRoute(PERMISSIONS["views:save"], ({ url, actor }) => listSavedViews(prisma, actor.id, parseQuery(url, ListViewsQuerySchema).scope));

export const POST = defineRoute(PERMISSIONS["views:save"], async ({ request, actor }) => saveView(prisma, actor.id, await parseBody(request, SavedViewInputSchema)));
