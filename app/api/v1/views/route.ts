import { z } from "zod";
import { defineRoute } from "@/lib/http/define-route";
import { listSavedViews, saveView, SavedViewInputSchema, VIEW_SCOPES } from "@/lib/views/saved-views";
import { SavedViewPageSchema, SavedViewSchema } from "@/lib/http/api-schemas";
import { PageQuerySchema, pageOf } from "@/lib/http/pagination";

const ListViewsQuerySchema = PageQuerySchema.extend({ scope: z.enum(VIEW_SCOPES).optional() });

export const GET = defineRoute(
  {
    permission: "views:save",
    summary: "Your saved views, by name",
    query: ListViewsQuerySchema,
    response: SavedViewPageSchema,
  },
  async ({ db, actor, query }) => pageOf(await listSavedViews(db, actor.id, query.scope), query, (view) => view.id),
);

export const POST = defineRoute(
  {
    permission: "views:save",
    summary: "Save (or replace, by name) one of your views",
    body: SavedViewInputSchema,
    response: SavedViewSchema,
    status: 201,
    idempotent: true,
  },
  ({ db, actor, body }) => saveView(db, actor.id, body),
);
