import { SignInForm } from "@/components/auth/sign-in-form";
import { oidcProviderFromEnv } from "@/lib/auth/oidc-provider";

export const dynamic = "force-dynamic";

export default function SignInPage() {
  const oidc = oidcProviderFromEnv();
  return (
    <main className="mx-auto max-w-sm px-4 py-24">
      <h1 className="text-2xl font-semibold">Sign in to SWE Curator</h1>
      <SignInForm oidcName={oidc ? String(oidc.name) : null} />
    </main>
  );
}
