import { defineRoute } from "@/lib/http/define-route";
import { buildOpenApiDocument } from "@/lib/http/openapi";
import { AnyObject } from "@/lib/http/api-schemas";
import { loadApiRoutes } from "../api-routes";
import packageJson from "@/package.json";

let document: ReturnType<typeof buildOpenApiDocument> | undefined;

export const GET = defineRoute({ permission: "tasks:read", summary: "This API's OpenAPI 3.1 document", response: AnyObject }, async () => {
  document ??= buildOpenApiDocument(await loadApiRoutes(), packageJson.version);
  return document;
});
