"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Link } from "@/components/ui/link";
import { useState } from "react";
import { apiFetch, apiFetchAll } from "@/components/ui/api";
import { Button } from "@/components/ui/button";
import { ErrorText } from "@/components/ui/error-text";

type SavedView = { id: string; name: string; scope: string; query: string };

/** The user's saved views of a list: open one, save the current URL state under a name, delete. */
export function SavedViews({
  scope,
  basePath,
  currentQuery,
}: {
  scope: "tasks" | "environments";
  basePath: string;
  currentQuery: string;
}) {
  const client = useQueryClient();
  const key = ["views", scope];
  const { data: views = [] } = useQuery({
    queryKey: key,
    queryFn: () => apiFetchAll<SavedView>(`/api/v1/views?scope=${scope}`),
  });
  const [name, setName] = useState("");
  const save = useMutation({
    mutationFn: () =>
      apiFetch<SavedView>("/api/v1/views", { method: "POST", json: { name, scope, query: currentQuery } }),
    onSuccess: () => {
      setName("");
      return client.invalidateQueries({ queryKey: key });
    },
  });
  const remove = useMutation({
    mutationFn: (id: string) => apiFetch(`/api/v1/views/${id}`, { method: "DELETE" }),
    onSuccess: () => client.invalidateQueries({ queryKey: key }),
  });
  return (
    <details className="relative">
      <summary className="cursor-pointer rounded border border-slate-300 bg-white px-3 py-1.5 text-sm">
        Saved views ({views.length})
      </summary>
      <div className="absolute right-0 z-20 mt-1 w-80 rounded border border-slate-300 bg-white p-3 shadow-lg">
        <ul className="mb-3 flex flex-col gap-1 text-sm" aria-label="Saved views">
          {views.length === 0 && <li className="text-slate-500">No saved views yet.</li>}
          {views.map((view) => (
            <li key={view.id} className="flex items-center gap-2">
              <Link
                href={`${basePath}?${view.query}`}
                className={`flex-1 truncate text-blue-700 underline ${view.query === currentQuery ? "font-semibold" : ""}`}
                title={view.query || "(no filters)"}
              >
                {view.name}
              </Link>
              <Button
                size="sm"
                variant="ghost"
                aria-label={`Delete view ${view.name}`}
                onClick={() => remove.mutate(view.id)}
              >
                Delete
              </Button>
            </li>
          ))}
        </ul>
        <form
          className="flex items-end gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            if (name.trim()) save.mutate();
          }}
        >
          <label className="flex flex-1 flex-col text-xs">
            Save the current filters as
            <input
              value={name}
              onChange={(e) => setName(e.target.value)}
              className="rounded border border-slate-300 px-2 py-1 text-sm"
              placeholder="e.g. Flaky SWE-Gym"
            />
          </label>
          <Button type="submit" variant="primary" size="sm" disabled={!name.trim() || save.isPending}>
            Save
          </Button>
        </form>
        <ErrorText error={save.error ?? remove.error} />
      </div>
    </details>
  );
}
