import { defineRoute } from "@/lib/http/define-route";
import { ActorSchema } from "@/lib/http/api-schemas";

export const GET = defineRoute(
  { permission: "tasks:read", summary: "Who is calling (the session's or the token's user)", response: ActorSchema },
  async ({ actor }) => actor,
);
