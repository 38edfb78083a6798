import { defineRoute } from "@/lib/http/define-route";
import { CurationSettingsUpdateSchema, getCurationSettings, updateCurationSettings } from "@/lib/curation/settings";
import { SettingsSchema } from "@/lib/http/api-schemas";

export const GET = defineRoute(
  { permission: "tasks:read", summary: "Curation settings", response: SettingsSchema },
  ({ db }) => getCurationSettings(db),
);

export const PUT = defineRoute(
  {
    permission: "settings:manage",
    summary: "Change curation settings",
    body: CurationSettingsUpdateSchema,
    response: SettingsSchema,
  },
  ({ db, actor, body }) => updateCurationSettings(db, actor.id, body),
);
