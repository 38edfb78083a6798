import type { Provider } from "next-auth/providers/index";
import { OIDC_PROVIDER_ID } from "./oidc-sign-in";
import { serverConfig } from "../config/server-config";

/**
 * An optional OpenID Connect provider, enabled when OIDC_ISSUER, OIDC_CLIENT_ID and
 * OIDC_CLIENT_SECRET are set (Keycloak, Dex, Okta, Google Workspace…). Air-gapped sites
 * simply leave them unset and use passwords. Who may come in this way is decided in
 * oidc-sign-in.ts (verified e-mail, OIDC_ALLOWED_DOMAINS, no silent linking).
 */
export function oidcProviderFromEnv(): Provider | null {
  const { OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET, OIDC_NAME } = serverConfig();
  if (!OIDC_ISSUER || !OIDC_CLIENT_ID || !OIDC_CLIENT_SECRET) return null;
  return {
    id: OIDC_PROVIDER_ID,
    name: OIDC_NAME,
    type: "oauth",
    wellKnown: `${OIDC_ISSUER.replace(/\/$/, "")}/.well-known/openid-configuration`,
    authorization: { params: { scope: "openid email profile" } },
    idToken: true,
    checks: ["pkce", "state"],
    clientId: OIDC_CLIENT_ID,
    clientSecret: OIDC_CLIENT_SECRET,
    profile(profile: { sub: string; email?: string; name?: string }) {
      return { id: profile.sub, email: profile.email ?? null, name: profile.name ?? profile.email ?? null };
    },
  } as Provider;
}
