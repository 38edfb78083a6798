import { defineRoute } from "@/lib/http/define-route";
import { prisma } from "@/lib/db/client";
import { CurationSettingsUpdateSchema, getCurationSettings, updateCurationSettings } from "@/lib/curation/settings";
import { SettingsSchema } from "@/lib/http/api-schemas";

export const GET = defineRoute({ permission: "tasks:read", summary: "Curation settings", response: SettingsSchema }, () => getCurationSettings(prisma));

export const PUT = defineRoute({ permission: "settings:manage", summary: "Change curation settings", body: CurationSettingsUpdateSchema, response: SettingsSchema }, ({ actor, body }) =>
  updateCurationSettings(prisma, actor.id, body),
);
