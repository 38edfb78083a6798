import { ChangePasswordForm, LinkSingleSignOn } from "@/components/auth/account-settings";
import { oidcProviderFromEnv } from "@/lib/auth/oidc-provider";
import { pageActor } from "@/lib/auth/session";

export const dynamic = "force-dynamic";

export default async function AccountPage() {
  await pageActor();
  const oidc = oidcProviderFromEnv();
  return (
    <>
      <h1 className="mb-4 text-xl font-semibold">Your account</h1>
      <ChangePasswordForm />
      {oidc && <LinkSingleSignOn providerName={String(oidc.name)} />}
    </>
  );
}
