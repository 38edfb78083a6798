"use client";
import { useMutation } from "@tanstack/react-query";
import { apiFetch } from "@/components/ui/api";

/** An admin gives a user a new generated password (shown once here); the user's sessions end. */
export function ResetPasswordButton({ userId, email }: { userId: string; email: string }) {
  const reset = useMutation({
    mutationFn: () => apiFetch<{ password: string }>(`/api/v1/users/${userId}/password`, { method: "POST", json: {} }),
  });
  if (reset.isSuccess) {
    return (
      <span role="status" className="text-xs">
        New password, shown once: <code className="select-all font-mono">{reset.data.password}</code>
      </span>
    );
  }
  return (
    <button
      type="button"
      onClick={() => window.confirm(`Give ${email} a new password and sign them out everywhere?`) && reset.mutate()}
      className="rounded border border-slate-300 px-2 py-0.5 text-xs"
      title={reset.error?.message}
    >
      Reset password
    </button>
  );
}
