import { z } from "zod";
import { defineRoute } from "@/lib/http/define-route";
import { createOidcLinkIntent, OIDC_LINK_COOKIE } from "@/lib/auth/oidc-sign-in";
import { servedOverHttps } from "@/lib/config/server-config";

/**
 * A signed-in user asks to link single sign-on to this account: the next OIDC sign-in from
 * this browser (within 10 minutes) is linked, even though the account has a password.
 */
export const POST = defineRoute(
  {
    permission: "account:manage",
    summary: "Link single sign-on to your account at your next OIDC sign-in (10 minutes)",
    response: z.object({ expiresAt: z.iso.datetime({ offset: true }) }),
  },
  async ({ db, actor }) => {
    const { token, expiresAt } = await createOidcLinkIntent(db, actor.id);
    const secure = servedOverHttps() ? "; Secure" : "";
    const cookie = `${OIDC_LINK_COOKIE}=${token}; Path=/api/auth; HttpOnly; SameSite=Lax; Max-Age=600${secure}`;
    return new Response(JSON.stringify({ expiresAt }), {
      headers: { "content-type": "application/json", "set-cookie": cookie },
    });
  },
);
