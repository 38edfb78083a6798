"use client";
import { queryOptions, useQuery, useQueryClient, type QueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { apiFetch } from "@/components/ui/api";
import { queryKeys } from "@/components/ui/query-keys";
import type { StepSearchResult } from "@/lib/trajectories/search-steps";
import type { StepKind } from "@/lib/trajectories/step-kind";
import type { SearchTerms } from "@/lib/trajectories/highlight";

function stepSearchQuery(client: QueryClient, trajectoryId: string, kind: StepKind | null, terms: SearchTerms) {
  return queryOptions({
    queryKey: queryKeys.trajectoryStepSearch(trajectoryId, kind, terms.q, terms.regex),
    queryFn: async () => {
      // the first match comes in full with the answer: landing on it shows it without a second request
      const found = await apiFetch<StepSearchResult>(
        `/api/v1/trajectories/${trajectoryId}/search?${new URLSearchParams({ q: terms.q, regex: terms.regex ? "1" : "0", first: "1", ...(kind ? { kind } : {}) })}`,
      );
      const { firstStep, ...rest } = found;
      if (firstStep) client.setQueryData(queryKeys.trajectoryStep(trajectoryId, firstStep.index), firstStep);
      return rest;
    },
    staleTime: 60_000,
  });
}

/** Search inside the trajectory on the server: the count, then next / previous match, each a jump. */
export function SearchBar({
  trajectoryId,
  kind,
  initial,
  currentIndex,
  onSearch,
  onMatch,
}: {
  trajectoryId: string;
  kind: StepKind | null;
  initial: SearchTerms | null;
  currentIndex: number | null;
  onSearch(terms: SearchTerms | null): void;
  onMatch(index: number): void;
}) {
  const [text, setText] = useState(initial?.q ?? "");
  const [regex, setRegex] = useState(initial?.regex ?? false);
  const [terms, setTerms] = useState<SearchTerms | null>(initial);
  const client = useQueryClient();
  const result = useQuery({
    ...stepSearchQuery(client, trajectoryId, kind, terms ?? { q: "", regex: false }),
    enabled: !!terms,
  });
  const matches = result.data?.matches ?? [];
  const at = currentIndex === null ? -1 : matches.indexOf(currentIndex);

  // a new search lands on its first match; the search a permalink carries leaves the link's step in place
  const landed = useRef<unknown>(initial ? "from the link" : null);
  useEffect(() => {
    if (!result.data || landed.current === result.data) return;
    const fromLink = landed.current === "from the link";
    landed.current = result.data;
    if (fromLink) return;
    if (result.data.matches.length && !(currentIndex !== null && result.data.matches.includes(currentIndex)))
      onMatch(result.data.matches[0]);
  }, [result.data, currentIndex, onMatch]);

  function go(step: 1 | -1) {
    if (!matches.length) return;
    // from the current step: the next match after it, or the previous before it
    const next =
      step === 1
        ? (matches.find((m) => currentIndex === null || m > currentIndex) ?? matches[0])
        : ([...matches].reverse().find((m) => currentIndex === null || m < currentIndex) ??
          matches[matches.length - 1]);
    onMatch(next);
  }

  function submit(event: React.FormEvent) {
    event.preventDefault();
    const q = text.trim();
    if (q && terms && q === terms.q && regex === terms.regex) return go(1);
    const next = q ? { q, regex } : null;
    // the request leaves with the key, not after the page has re-rendered for the new terms
    // (useQuery would send it only once that render is committed: bench:trajectory timed 336 ms)
    if (next) void client.prefetchQuery(stepSearchQuery(client, trajectoryId, kind, next));
    setTerms(next);
    onSearch(next);
  }

  return (
    <form role="search" onSubmit={submit} className="mb-3 flex flex-wrap items-center gap-2 text-sm">
      <input
        type="search"
        aria-label="Search in this trajectory"
        placeholder="Search thoughts, actions, observations…"
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === "Enter" && e.shiftKey) {
            e.preventDefault();
            go(-1);
          }
        }}
        className="w-80 rounded border px-2 py-1"
      />
      <label className="flex items-center gap-1 text-xs">
        <input type="checkbox" checked={regex} onChange={(e) => setRegex(e.target.checked)} /> regular expression
      </label>
      <button type="submit" className="rounded border px-2 py-1 text-xs">
        Search
      </button>
      <button
        type="button"
        className="rounded border px-2 py-1 text-xs"
        disabled={!matches.length}
        onClick={() => go(-1)}
        aria-label="Previous match"
      >
        ↑ Previous
      </button>
      <button
        type="button"
        className="rounded border px-2 py-1 text-xs"
        disabled={!matches.length}
        onClick={() => go(1)}
        aria-label="Next match"
      >
        ↓ Next
      </button>
      <span role="status" className="text-xs text-slate-700" data-testid="search-status">
        {result.isFetching && "Searching…"}
        {result.error && <span className="text-red-700">{result.error.message}</span>}
        {result.data &&
          !result.isFetching &&
          (result.data.count
            ? `${at >= 0 ? `${at + 1} of ` : ""}${result.data.count.toLocaleString()} matching step${result.data.count === 1 ? "" : "s"}${result.data.matches.length < result.data.count ? ` (the first ${result.data.matches.length.toLocaleString()} can be stepped through)` : ""}`
            : `No step matches “${terms?.q}”`)}
      </span>
    </form>
  );
}
