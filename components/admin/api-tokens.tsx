"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { apiFetch, apiFetchAll } from "@/components/ui/api";
import { ErrorText } from "@/components/ui/error-text";
import { queryKeys } from "@/components/ui/query-keys";
import { useActor } from "@/components/auth/actor-context";
import { scopesForRole, TOKEN_SCOPES, type TokenScope } from "@/lib/auth/permissions";

type TokenRow = {
  id: string;
  name: string;
  prefix: string;
  scopes: TokenScope[];
  createdAt: string;
  expiresAt: string | null;
  lastUsedAt: string | null;
  revokedAt: string | null;
};

const SCOPE_HELP: Record<TokenScope, string> = {
  read: "read tasks, runs, trajectories; export",
  curate: "decide, edit tasks and recipes",
  run: "builds, validations, imports",
  admin: "users, settings, tokens",
};

const day = (iso: string) => new Date(iso).toLocaleDateString();

export function ApiTokens() {
  const queryClient = useQueryClient();
  const { role } = useActor();
  const tokens = useQuery({ queryKey: queryKeys.tokens(), queryFn: () => apiFetchAll<TokenRow>("/api/v1/tokens") });
  const [fresh, setFresh] = useState<string | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: queryKeys.tokens() });
  const create = useMutation({
    mutationFn: (input: { name: string; scopes: TokenScope[]; expiresInDays: number }) =>
      apiFetch<{ token: string }>("/api/v1/tokens", { method: "POST", json: input }),
    onSuccess: (result) => (setFresh(result.token), refresh()),
  });
  const revoke = useMutation({
    mutationFn: (id: string) => apiFetch(`/api/v1/tokens/${id}`, { method: "DELETE" }),
    onSuccess: refresh,
  });
  const allowed = scopesForRole(role);
  return (
    <div className="space-y-4">
      <form
        className="flex flex-wrap items-end gap-3"
        onSubmit={(event) => {
          event.preventDefault();
          const form = new FormData(event.currentTarget);
          create.mutate({
            name: String(form.get("name")),
            scopes: form.getAll("scopes").map(String) as TokenScope[],
            expiresInDays: Number(form.get("expiresInDays")),
          });
        }}
      >
        <label className="text-sm">
          Token name <input name="name" required className="ml-1 rounded border px-2 py-1" placeholder="ci-export" />
        </label>
        <fieldset className="flex gap-3 text-sm">
          <legend className="sr-only">Scopes</legend>
          {TOKEN_SCOPES.map((scope) => (
            <label key={scope} title={SCOPE_HELP[scope]} className={allowed.includes(scope) ? "" : "text-slate-400"}>
              <input
                type="checkbox"
                name="scopes"
                value={scope}
                defaultChecked={scope === "read"}
                disabled={!allowed.includes(scope)}
                className="mr-1"
              />
              {scope}
            </label>
          ))}
        </fieldset>
        <label className="text-sm">
          Expires in{" "}
          <select name="expiresInDays" defaultValue="90" className="rounded border px-1 py-1">
            {[7, 30, 90, 365].map((days) => (
              <option key={days} value={days}>
                {days} days
              </option>
            ))}
          </select>
        </label>
        <button className="rounded bg-slate-900 px-3 py-1.5 text-sm text-white">Create token</button>
      </form>
      <ErrorText error={create.error} prefix="Could not create the token" />
      {fresh && (
        <p role="status" className="rounded border border-amber-300 bg-amber-50 p-3 text-sm">
          Copy it now, it will not be shown again: <code className="select-all font-mono">{fresh}</code>
        </p>
      )}
      <ul className="divide-y rounded border bg-white text-sm">
        {tokens.data?.map((token) => (
          <li key={token.id} className="flex items-center gap-3 px-3 py-2">
            <span className="font-medium">{token.name}</span>
            <code className="text-slate-500">{token.prefix}…</code>
            <span className="text-slate-600">{token.scopes.join(", ")}</span>
            {/* dates as the server formats them (its time zone may differ from the browser's): hydration keeps them rather than failing, as TimeAgo does */}
            <span className="text-slate-500" suppressHydrationWarning>
              {token.lastUsedAt ? `last used ${new Date(token.lastUsedAt).toLocaleString()}` : "never used"}
            </span>
            {token.expiresAt && (
              <span className="text-slate-500" suppressHydrationWarning>
                expires {day(token.expiresAt)}
              </span>
            )}
            {token.revokedAt ? (
              <span className="ml-auto text-slate-500">revoked</span>
            ) : (
              <button
                type="button"
                onClick={() => revoke.mutate(token.id)}
                className="ml-auto rounded border px-2 py-1"
              >
                Revoke
              </button>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}
