import { defineRoute } from "@/lib/http/define-route";
import { AnyObject } from "@/lib/http/api-schemas";
import { openApiDocument } from "../api-routes";

export const GET = defineRoute(
  { permission: "tasks:read", summary: "This API's OpenAPI 3.1 document", response: AnyObject },
  () => openApiDocument(),
);
