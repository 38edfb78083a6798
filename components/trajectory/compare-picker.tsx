"use client";
import { useQuery } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useDeferredValue, useState } from "react";
import { apiFetch } from "@/components/ui/api";
import { queryKeys } from "@/components/ui/query-keys";
import { inputClass } from "@/components/ui/field";
import { Button } from "@/components/ui/button";
import type { CompareCandidate, CompareCandidates } from "@/lib/trajectories/compare-candidates";

// Any two trajectories, picked with native selects (keyboard and screen readers work as
// everywhere else): B's list offers A's task's other trajectories first, then the others the
// search finds by task, model or id.

/** "django__django-1 · gpt-4o · reviewer · run-17" — what a person recognises a trajectory by. */
export const candidateLabel = (c: Pick<CompareCandidate, "instanceId" | "model" | "role" | "externalId">) =>
  `${c.instanceId ?? "(no task)"} · ${c.model ?? "(no model)"} · ${c.role.toLowerCase()} · ${c.externalId}`;

export type Picked = { id: string; label: string };

function CandidateOptions({ label, items, skip }: { label: string; items: CompareCandidate[]; skip: string[] }) {
  const shown = items.filter((c) => !skip.includes(c.id));
  if (shown.length === 0) return null;
  return (
    <optgroup label={label}>
      {shown.map((c) => (
        <option key={c.id} value={c.id}>
          {candidateLabel(c)}
        </option>
      ))}
    </optgroup>
  );
}

function PickSelect({
  name,
  label,
  value,
  current,
  lists,
  onChange,
}: {
  name: string;
  label: string;
  value: string;
  current: Picked | null;
  lists: { label: string; items: CompareCandidate[] }[];
  onChange(value: string): void;
}) {
  const known = current && current.id === value ? [current.id] : [];
  return (
    <label className="flex min-w-0 flex-1 flex-col text-xs font-medium text-slate-700">
      {label}
      <select name={name} value={value} onChange={(e) => onChange(e.target.value)} className={`${inputClass} min-w-0`}>
        <option value="">Choose a trajectory…</option>
        {current && current.id === value && <option value={current.id}>{current.label}</option>}
        {lists.map((list) => (
          <CandidateOptions key={list.label} label={list.label} items={list.items} skip={known} />
        ))}
      </select>
    </label>
  );
}

/** Pick trajectories A and B (any two) and open their comparison. */
export function ComparePicker({ a, b }: { a: Picked | null; b: Picked | null }) {
  const router = useRouter();
  const [pickA, setPickA] = useState(a?.id ?? "");
  const [pickB, setPickB] = useState(b?.id ?? "");
  const [search, setSearch] = useState("");
  const q = useDeferredValue(search.trim());
  const candidates = useQuery({
    queryKey: queryKeys.compareCandidates(pickA, q),
    queryFn: () =>
      apiFetch<CompareCandidates>(
        `/api/v1/trajectories/compare/candidates?${new URLSearchParams({ ...(pickA ? { near: pickA } : {}), ...(q ? { q } : {}) })}`,
      ),
  });
  const sameTask = candidates.data?.sameTask ?? [];
  const others = candidates.data?.others ?? [];
  const everything = [...sameTask, ...others];
  return (
    <form
      aria-label="Pick two trajectories to compare"
      data-testid="compare-picker"
      className="flex flex-wrap items-end gap-2 rounded border bg-white p-3"
      onSubmit={(event) => {
        event.preventDefault();
        if (pickA && pickB) router.push(`/trajectories/compare?${new URLSearchParams({ a: pickA, b: pickB })}`);
      }}
    >
      <label className="flex w-56 flex-col text-xs font-medium text-slate-700">
        Find by task, model or id
        <input
          type="search"
          name="q"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          placeholder="e.g. django or gpt-4o"
          className={inputClass}
        />
      </label>
      <PickSelect
        name="a"
        label="Trajectory A"
        value={pickA}
        current={a}
        lists={[{ label: "Trajectories", items: everything }]}
        onChange={setPickA}
      />
      <PickSelect
        name="b"
        label="Trajectory B"
        value={pickB}
        current={b}
        lists={[
          { label: "Same task as A", items: sameTask },
          { label: pickA ? "Other tasks" : "Trajectories", items: others },
        ]}
        onChange={setPickB}
      />
      <Button type="submit" variant="primary" disabled={!pickA || !pickB}>
        Compare
      </Button>
      {candidates.error && (
        <p role="alert" className="w-full text-xs text-red-800">
          Could not list trajectories: {candidates.error.message}
        </p>
      )}
    </form>
  );
}
