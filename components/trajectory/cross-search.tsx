"use client";
import { Link } from "@/components/ui/link";
import { useState } from "react";
import { useRouter } from "next/navigation";
import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { apiFetch } from "@/components/ui/api";
import { Badge, type Tone } from "@/components/ui/badge";
import { ErrorText } from "@/components/ui/error-text";
import { Field, inputClass } from "@/components/ui/field";
import { Tabs } from "@/components/ui/tabs";
import { BarChart } from "@/components/charts/bar-chart";
import { SKIP_TARGET } from "@/components/ui/skip-link";
import { queryKeys } from "@/components/ui/query-keys";
import {
  clusterQueryString,
  crossSearchQueryString,
  type CrossSearchParams,
} from "@/lib/trajectories/cross-search-url";

// Search across every trajectory's steps, and the failed trajectories' clusters, on one page
// whose URL holds the search (?q=&model=&task=&verdict=&tab=), so a result list is a link.

type Piece = { text: string; match: boolean };
type Hit = {
  trajectoryId: string;
  stepIndex: number;
  kind: string | null;
  model: string | null;
  instanceId: string | null;
  outcome: string;
  snippet: Piece[];
};
type Member = {
  trajectoryId: string;
  instanceId: string | null;
  model: string | null;
  outcome: string;
  stepIndex: number | null;
};
type Cluster = {
  key: string;
  errorClass: string;
  tool: string | null;
  failingTests: string[];
  count: number;
  models: string[];
  members: Member[];
};
type Clusters = { clusters: Cluster[]; trajectories: number; capped: boolean };

const OUTCOME_TONES: Record<string, Tone> = { RESOLVED: "green", UNRESOLVED: "red", ERRORED: "amber", UNKNOWN: "gray" };
const EXAMPLES_SHOWN = 5;

const stepHref = (trajectoryId: string, stepIndex: number, q?: string) =>
  `/trajectories/${trajectoryId}?step=${stepIndex + 1}${q ? `&q=${encodeURIComponent(q)}` : ""}`;

function Snippet({ pieces }: { pieces: Piece[] }) {
  return (
    <p className="mt-1 break-words font-mono text-xs text-slate-700">
      {pieces.map((p, i) =>
        p.match ? (
          <mark key={i} className="bg-yellow-200 text-slate-900">
            {p.text}
          </mark>
        ) : (
          <span key={i}>{p.text}</span>
        ),
      )}
    </p>
  );
}

function HitRow({ hit, q, first }: { hit: Hit; q: string; first: boolean }) {
  return (
    <li className="rounded border border-slate-200 bg-white p-2">
      <Link
        href={stepHref(hit.trajectoryId, hit.stepIndex, q)}
        {...(first ? { [SKIP_TARGET]: "" } : {})}
        className="text-sm font-medium text-blue-800 underline"
      >
        {hit.instanceId ?? "no task"} · step {hit.stepIndex + 1}
      </Link>
      <span className="ml-2 font-mono text-xs text-slate-600">{hit.model ?? "unknown model"}</span>
      <span className="ml-2">
        <Badge tone={OUTCOME_TONES[hit.outcome]}>{hit.outcome}</Badge>
      </span>
      {hit.kind && <span className="ml-2 text-xs text-slate-600">{hit.kind.toLowerCase()}</span>}
      <Snippet pieces={hit.snippet} />
    </li>
  );
}

function StepResults({ params }: { params: CrossSearchParams }) {
  const qs = crossSearchQueryString(params);
  const results = useInfiniteQuery({
    queryKey: queryKeys.trajectorySearch(qs),
    queryFn: ({ pageParam }) =>
      apiFetch<{ items: Hit[]; nextCursor: string | null }>(
        `/api/v1/trajectories/search?${qs}${pageParam ? `&cursor=${encodeURIComponent(pageParam)}` : ""}`,
      ),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    enabled: !!params.q,
  });
  if (!params.q)
    return (
      <p className="text-sm text-slate-600">
        Type words to find in any step of any trajectory: an error message, a file, a function.
      </p>
    );
  if (results.error) return <ErrorText error={results.error} />;
  const hits = results.data?.pages.flatMap((page) => page.items) ?? [];
  if (results.isPending)
    return (
      <p className="text-sm text-slate-600" aria-live="polite">
        Searching…
      </p>
    );
  return (
    <section aria-label="Matching steps" className="space-y-2">
      <p className="text-sm text-slate-600" aria-live="polite">
        {hits.length
          ? `${hits.length}${results.hasNextPage ? "+" : ""} matching steps`
          : "No step matches these words and filters."}
      </p>
      <ol className="space-y-2">
        {hits.map((hit, i) => (
          <HitRow key={`${hit.trajectoryId}:${hit.stepIndex}`} hit={hit} q={params.q} first={i === 0} />
        ))}
      </ol>
      {results.hasNextPage && (
        <button
          type="button"
          onClick={() => results.fetchNextPage()}
          disabled={results.isFetchingNextPage}
          className="rounded border border-slate-300 px-3 py-1 text-sm"
        >
          {results.isFetchingNextPage ? "Loading…" : "More results"}
        </button>
      )}
    </section>
  );
}

function ClusterRow({ cluster }: { cluster: Cluster }) {
  return (
    <tr className="border-t border-slate-200 align-top">
      <td className="py-1 pr-3 font-medium [overflow-wrap:anywhere]">{cluster.errorClass}</td>
      <td className="py-1 pr-3 font-mono text-xs">{cluster.tool ?? "—"}</td>
      <td className="py-1 pr-3 font-mono text-xs [overflow-wrap:anywhere]">{cluster.failingTests.join(", ") || "—"}</td>
      <td className="py-1 pr-3 text-right">{cluster.count}</td>
      <td className="py-1 pr-3 font-mono text-xs">{cluster.models.join(", ")}</td>
      <td className="py-1">
        <ul>
          {cluster.members.slice(0, EXAMPLES_SHOWN).map((m) => (
            <li key={m.trajectoryId}>
              <Link
                href={m.stepIndex === null ? `/trajectories/${m.trajectoryId}` : stepHref(m.trajectoryId, m.stepIndex)}
                className="text-xs text-blue-800 underline"
              >
                {m.instanceId ?? "no task"} ({m.model ?? "?"}){m.stepIndex === null ? "" : ` · step ${m.stepIndex + 1}`}
              </Link>
            </li>
          ))}
          {cluster.members.length > EXAMPLES_SHOWN && (
            <li className="text-xs text-slate-600">
              and {cluster.members.length - EXAMPLES_SHOWN} more (in the export)
            </li>
          )}
        </ul>
      </td>
    </tr>
  );
}

function ClusterResults({ params }: { params: CrossSearchParams }) {
  const qs = clusterQueryString(params);
  const clusters = useQuery({
    queryKey: queryKeys.trajectoryClusters(qs),
    queryFn: () => apiFetch<Clusters>(`/api/v1/trajectories/clusters?${qs}`),
  });
  if (clusters.error) return <ErrorText error={clusters.error} />;
  if (!clusters.data)
    return (
      <p className="text-sm text-slate-600" aria-live="polite">
        Grouping failed trajectories…
      </p>
    );
  const { data } = clusters;
  const bars = data.clusters.map((c) => ({ label: c.key, value: c.count }));
  return (
    <section aria-label="Failure clusters" className="space-y-3">
      <p className="text-sm text-slate-600">
        {data.trajectories} failed trajectories in {data.clusters.length} clusters, grouped by the last error an
        observation shows, the tool that showed it and the tests the candidate failed.
        {data.capped ? " Only the first ones were grouped; narrow the filters to group the rest." : ""}
      </p>
      <p className="flex gap-3 text-sm">
        <a
          href={`/api/v1/trajectories/clusters?${qs}${qs ? "&" : ""}format=csv`}
          className="text-blue-800 underline"
          download
        >
          Export CSV
        </a>
        <a
          href={`/api/v1/trajectories/clusters?${qs}`}
          className="text-blue-800 underline"
          download="failure-clusters.json"
        >
          Export JSON
        </a>
      </p>
      {/* the chart above its table: six columns of test ids and links need the page's whole width */}
      <div className="space-y-4">
        <BarChart
          title="Failed trajectories per cluster"
          bars={bars}
          scale={{ kind: "count" }}
          emptyText="No failed trajectory matches these filters."
        />
        <div className="overflow-x-auto">
          <table className="w-full text-sm">
            <caption className="sr-only">Failure clusters with counts and examples</caption>
            <thead>
              <tr className="text-left text-slate-600">
                <th scope="col" className="pr-3">
                  Error
                </th>
                <th scope="col" className="pr-3">
                  Tool
                </th>
                <th scope="col" className="pr-3">
                  Failing tests
                </th>
                <th scope="col" className="pr-3 text-right">
                  Count
                </th>
                <th scope="col" className="pr-3">
                  Models
                </th>
                <th scope="col">Examples</th>
              </tr>
            </thead>
            <tbody>
              {data.clusters.map((c) => (
                <ClusterRow key={c.key} cluster={c} />
              ))}
            </tbody>
          </table>
        </div>
      </div>
    </section>
  );
}

function SearchForm({ initial, onSearch }: { initial: CrossSearchParams; onSearch: (p: CrossSearchParams) => void }) {
  const [draft, setDraft] = useState(initial);
  const set = (key: keyof CrossSearchParams) => (e: React.ChangeEvent<HTMLInputElement | HTMLSelectElement>) =>
    setDraft({ ...draft, [key]: e.target.value });
  return (
    <form
      role="search"
      aria-label="Search trajectories"
      className="flex flex-wrap items-end gap-3"
      onSubmit={(e) => {
        e.preventDefault();
        onSearch(draft);
      }}
    >
      <Field label="Words in any step">
        {(id) => (
          <input
            id={id}
            type="search"
            value={draft.q}
            onChange={set("q")}
            className={`${inputClass} w-72`}
            placeholder="ModuleNotFoundError"
          />
        )}
      </Field>
      <Field label="Model">
        {(id) => <input id={id} value={draft.model} onChange={set("model")} className={inputClass} />}
      </Field>
      <Field label="Task (instance id)">
        {(id) => <input id={id} value={draft.task} onChange={set("task")} className={inputClass} />}
      </Field>
      <Field label="Outcome">
        {(id) => (
          <select id={id} value={draft.verdict} onChange={set("verdict")} className={inputClass}>
            <option value="">any</option>
            <option value="RESOLVED">resolved</option>
            <option value="UNRESOLVED">unresolved</option>
            <option value="ERRORED">errored</option>
            <option value="UNKNOWN">not judged</option>
          </select>
        )}
      </Field>
      <button type="submit" className="rounded bg-blue-700 px-3 py-1 text-sm font-medium text-white">
        Search
      </button>
    </form>
  );
}

/** The page: the search box and filters, then the matching steps or the failure clusters. */
export function CrossSearch({ initial }: { initial: CrossSearchParams }) {
  const router = useRouter();
  const [params, setParams] = useState(initial);
  const go = (next: CrossSearchParams) => {
    setParams(next);
    const qs = crossSearchQueryString(next);
    router.replace(`/trajectories/search?${qs}${next.tab === "clusters" ? `${qs ? "&" : ""}tab=clusters` : ""}`, {
      scroll: false,
    });
  };
  return (
    <div className="space-y-4">
      <h1 className="text-xl font-semibold">Search trajectories</h1>
      <SearchForm initial={initial} onSearch={(draft) => go({ ...draft, tab: params.tab })} />
      <Tabs
        label="Results"
        value={params.tab}
        onChange={(tab) => go({ ...params, tab })}
        tabs={[
          { id: "steps", label: "Matching steps" },
          { id: "clusters", label: "Failure clusters" },
        ]}
      />
      <div role="tabpanel" aria-label={params.tab === "steps" ? "Matching steps" : "Failure clusters"}>
        {params.tab === "steps" ? <StepResults params={params} /> : <ClusterResults params={params} />}
      </div>
    </div>
  );
}
