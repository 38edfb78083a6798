"use client";
import { signIn } from "next-auth/react";
import { useRouter, useSearchParams } from "next/navigation";
import { Suspense, useState } from "react";
import { safeCallbackPath } from "@/lib/auth/safe-redirect";
import { signInErrorMessage } from "@/lib/auth/sign-in-errors";

function Form({ oidcName }: { oidcName: string | null }) {
  const router = useRouter();
  const params = useSearchParams();
  const [error, setError] = useState<string | null>(signInErrorMessage(params.get("error")));
  const [busy, setBusy] = useState(false);

  // only a page of this site: ?callbackUrl=//evil.example must not lead elsewhere after signing in
  const callbackPath = () => safeCallbackPath(params.get("callbackUrl"), window.location.origin);

  async function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setBusy(true);
    setError(null);
    const result = await signIn("credentials", {
      email: form.get("email"),
      password: form.get("password"),
      redirect: false,
    });
    setBusy(false);
    if (result?.ok) router.push(callbackPath());
    else setError(signInErrorMessage(result?.error ?? "CredentialsSignin"));
  }

  return (
    <>
      <form onSubmit={submit} className="mt-6 space-y-4">
        <label className="block text-sm font-medium">
          Email
          <input
            name="email"
            type="email"
            required
            autoComplete="username"
            autoFocus
            className="mt-1 w-full rounded border border-slate-300 px-3 py-2"
          />
        </label>
        <label className="block text-sm font-medium">
          Password
          <input
            name="password"
            type="password"
            required
            autoComplete="current-password"
            className="mt-1 w-full rounded border border-slate-300 px-3 py-2"
          />
        </label>
        {error && (
          <p role="alert" className="text-sm text-red-700">
            {error}
          </p>
        )}
        <button
          type="submit"
          disabled={busy}
          className="w-full rounded bg-slate-900 px-3 py-2 font-medium text-white disabled:opacity-50"
        >
          {busy ? "Signing in…" : "Sign in"}
        </button>
      </form>
      {oidcName && (
        <button
          type="button"
          onClick={() => signIn("oidc", { callbackUrl: callbackPath() })}
          className="mt-4 w-full rounded border border-slate-300 px-3 py-2"
        >
          Continue with {oidcName}
        </button>
      )}
    </>
  );
}

export function SignInForm(props: { oidcName: string | null }) {
  return (
    <Suspense>
      <Form {...props} />
    </Suspense>
  );
}
