import { defineRoute, parseBody } from "@/lib/http/define-route";
import { prisma } from "@/lib/db/client";
import { PERMISSIONS } from "@/lib/auth/permissions";
import { CurationSettingsUpdateSchema, getCurationSettings, updateCurationSettings } from "@/lib/curation/settings";

export const GET = defineRoute(PERMISSIONS["tasks:read"], () => getCurationSettings(prisma));

export const PUT = defineRoute(PERMISSIONS["settings:manage"], async ({ request, actor }) =>
  updateCurationSettings(prisma, actor.id, await parseBody(request, CurationSettingsUpdateSchema)),
);
