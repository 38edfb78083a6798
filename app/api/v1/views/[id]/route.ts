import { z } from "zod";
import { defineRoute } from "@/lib/http/define-route";
import { deleteView, renameView } from "@/lib/views/saved-views";
import { IdParams, SavedViewSchema } from "@/lib/http/api-schemas";

const RenameViewSchema = z.object({ name: z.string().trim().min(1).max(100) });

export const PATCH = defineRoute(
  {
    permission: "views:save",
    summary: "Rename one of your saved views",
    params: IdParams,
    body: RenameViewSchema,
    response: SavedViewSchema,
  },
  ({ db, actor, params, body }) => renameView(db, actor.id, params.id, body.name),
);

export const DELETE = defineRoute(
  {
    permission: "views:save",
    summary: "Delete one of your saved views",
    params: IdParams,
    response: z.object({ deleted: z.literal(true) }),
  },
  async ({ db, actor, params }) => {
    await deleteView(db, actor.id, params.id);
    return { deleted: true };
  },
);
