import { z } from "zod";
import { defineRoute } from "@/lib/http/define-route";
import { ChangePasswordSchema, changeOwnPassword } from "@/lib/auth/password-change";
import { freshSessionCookie } from "@/lib/auth/session-cookie";

/** Change your own password; your other sessions end (and your API tokens, unless revokeApiTokens is false), this one gets a fresh cookie. */
export const POST = defineRoute(
  {
    permission: "account:manage",
    summary: "Change your own password (your other sessions end; your API tokens too unless revokeApiTokens is false)",
    body: ChangePasswordSchema,
    response: z.object({
      changed: z.literal(true),
      otherSessionsEnded: z.literal(true),
      apiTokensRevoked: z.number().int(),
    }),
  },
  async ({ db, request, actor, body }) => {
    const { user, apiTokensRevoked } = await changeOwnPassword(db, actor, body);
    const headers = new Headers({ "content-type": "application/json" });
    if (!request.headers.get("authorization")) headers.append("set-cookie", await freshSessionCookie(request, user));
    return new Response(JSON.stringify({ changed: true, otherSessionsEnded: true, apiTokensRevoked }), { headers });
  },
);
