"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { apiFetch } from "@/components/ui/api";

type TokenRow = { id: string; name: string; prefix: string; createdAt: string; lastUsedAt: string | null; revokedAt: string | null };

export function ApiTokens() {
  const queryClient = useQueryClient();
  const tokens = useQuery({ queryKey: ["tokens"], queryFn: () => apiFetch<TokenRow[]>("/api/v1/tokens") });
  const [fresh, setFresh] = useState<string | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: ["tokens"] });
  const create = useMutation({
    mutationFn: (name: string) => apiFetch<{ token: string }>("/api/v1/tokens", { method: "POST", json: { name } }),
    onSuccess: (result) => (setFresh(result.token), refresh()),
  });
  const revoke = useMutation({ mutationFn: (id: string) => apiFetch(`/api/v1/tokens/${id}`, { method: "DELETE" }), onSuccess: refresh });
  return (
    <div className="space-y-4">
      <form
        className="flex items-end gap-2"
        onSubmit={(event) => {
          event.preventDefault();
          create.mutate(String(new FormData(event.currentTarget).get("name")));
        }}
      >
        <label className="text-sm">
          Token name <input name="name" required className="ml-1 rounded border px-2 py-1" placeholder="ci-export" />
        </label>
        <button className="rounded bg-slate-900 px-3 py-1.5 text-sm text-white">Create token</button>
      </form>
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
            <span className="text-slate-500">{token.lastUsedAt ? `last used ${new Date(token.lastUsedAt).toLocaleString()}` : "never used"}</span>
            {token.revokedAt ? (
              <span className="ml-auto text-slate-500">revoked</span>
            ) : (
              <button type="button" onClick={() => revoke.mutate(token.id)} className="ml-auto rounded border px-2 py-1">
                Revoke
              </button>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}
