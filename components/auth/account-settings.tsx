"use client";
import { useMutation } from "@tanstack/react-query";
import { signIn } from "next-auth/react";
import { apiFetch } from "@/components/ui/api";

export function ChangePasswordForm() {
  const change = useMutation({
    mutationFn: (input: { currentPassword: string; newPassword: string; revokeApiTokens: boolean }) =>
      apiFetch<{ apiTokensRevoked: number }>("/api/v1/me/password", { method: "POST", json: input }),
  });
  return (
    <form
      className="max-w-sm space-y-3"
      onSubmit={(event) => {
        event.preventDefault();
        const form = new FormData(event.currentTarget);
        change.mutate({
          currentPassword: String(form.get("currentPassword")),
          newPassword: String(form.get("newPassword")),
          revokeApiTokens: form.get("revokeApiTokens") === "on",
        });
      }}
    >
      <h2 className="font-medium">Change your password</h2>
      <label className="block text-sm">
        Current password
        <input
          name="currentPassword"
          type="password"
          required
          autoComplete="current-password"
          className="mt-1 w-full rounded border px-2 py-1"
        />
      </label>
      <label className="block text-sm">
        New password (at least 12 characters)
        <input
          name="newPassword"
          type="password"
          required
          minLength={12}
          autoComplete="new-password"
          className="mt-1 w-full rounded border px-2 py-1"
        />
      </label>
      <label className="flex items-center gap-2 text-sm">
        <input name="revokeApiTokens" type="checkbox" defaultChecked />
        Also revoke my API tokens (scripts using them will need new ones)
      </label>
      {change.isError && (
        <p role="alert" className="text-sm text-red-700">
          {change.error.message}
        </p>
      )}
      {change.isSuccess && (
        <p role="status" className="text-sm text-green-800">
          Password changed. Every other session of yours has been signed out
          {change.data.apiTokensRevoked ? `, and ${change.data.apiTokensRevoked} API token(s) revoked` : ""}.
        </p>
      )}
      <button
        disabled={change.isPending}
        className="rounded bg-slate-900 px-3 py-1.5 text-sm text-white disabled:opacity-50"
      >
        Change password
      </button>
    </form>
  );
}

/** Links single sign-on to this password account: the owner, signed in, asks for it here. */
export function LinkSingleSignOn({ providerName }: { providerName: string }) {
  const link = useMutation({
    mutationFn: () => apiFetch("/api/v1/me/oidc-link", { method: "POST" }),
    onSuccess: () => signIn("oidc", { callbackUrl: "/settings/account" }),
  });
  return (
    <section className="mt-8 max-w-sm space-y-2">
      <h2 className="font-medium">Single sign-on</h2>
      <p className="text-sm text-slate-600">
        Sign in with {providerName} from now on, as this account. You confirm it at {providerName} next.
      </p>
      {link.isError && (
        <p role="alert" className="text-sm text-red-700">
          {link.error.message}
        </p>
      )}
      <button
        type="button"
        onClick={() => link.mutate()}
        className="rounded border border-slate-300 px-3 py-1.5 text-sm"
      >
        Link {providerName}
      </button>
    </section>
  );
}
