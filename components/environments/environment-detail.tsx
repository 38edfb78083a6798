"use client";
import { Link } from "@/components/ui/link";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { EnvironmentDetail as EnvironmentDetailData } from "@/lib/environments/get-environment";
import { apiFetch } from "@/components/ui/api";
import { queryKeys } from "@/components/ui/query-keys";
import { Badge, humanize } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { ErrorText } from "@/components/ui/error-text";
import { TimeAgo } from "@/components/ui/time-ago";
import type { Jsonified } from "@/components/ui/jsonified";
import { useCan } from "@/components/auth/actor-context";
import { EnvironmentBuildPanel } from "@/components/validation/environment-build-panel";
import { RecipeEditor } from "./recipe-editor";

type Detail = Jsonified<EnvironmentDetailData>;

const SOURCE_SENTENCES: Record<string, string> = {
  RECIPE: "Recipe: built from the Dockerfile below, with no network; its eval script runs the tests.",
  IMAGE:
    "Published image: pulled from an allowed registry (IMAGE_REGISTRIES) and run by digest; the eval script is derived from each task.",
  SPEC: "Harness spec: generated from the harness's per-repository specs; its build needs a build network (SPEC_BUILD_NETWORK_ENGINES); the eval script is derived from each task.",
  NONE: "No environment yet: the dataset row carried no recipe, named no image and matches no spec, so its tasks offer no Validate.",
};

/** Where the environment's image comes from, and the ways to give one to an environment that has none. */
function EnvironmentSource({ env, canEdit, onChanged }: { env: Detail; canEdit: boolean; onChanged: () => void }) {
  // a published image that changed on purpose: forget the pin, the next validation pins the new digest
  const repin = useMutation({
    mutationFn: () => apiFetch(`/api/v1/environments/${env.id}/repin`, { method: "POST" }),
    onSettled: onChanged,
  });
  return (
    <section aria-labelledby="env-source" className="flex flex-col gap-1 text-sm" data-testid="environment-source">
      <h2 id="env-source" className="text-base font-semibold">
        Source: <Badge>{humanize(env.imageSource)}</Badge>
      </h2>
      <p>{SOURCE_SENTENCES[env.imageSource]}</p>
      {env.imageReference ? (
        <p id="source-image">
          Image <code className="font-mono">{env.imageReference}</code>
          {env.imageDigest ? (
            <>
              {" "}
              pinned at <code className="font-mono break-all">{env.imageDigest}</code>{" "}
              {canEdit && (
                <Button onClick={() => repin.mutate()} disabled={repin.isPending}>
                  Re-pin image
                </Button>
              )}
              <ErrorText error={repin.error} />
            </>
          ) : (
            " (the digest is pinned on its first pull)"
          )}
        </p>
      ) : (
        <p id="source-image">
          The dataset names no published image for this environment; re-import its rows with an image_name or
          docker_image to use one.
        </p>
      )}
      <p id="source-spec">
        Generating from the harness spec needs the repository and version to be known to the harness, and an admin to
        allow a build network.
      </p>
      <p id="source-recipe">Saving a recipe below makes it the environment&apos;s source.</p>
    </section>
  );
}

/** One environment: its recipe (editable as new revisions), every revision with its builds, and its tasks. */
export function EnvironmentDetail({ environmentId }: { environmentId: string }) {
  const client = useQueryClient();
  const canEdit = useCan("environments:edit");
  const { data: env, error } = useQuery({
    queryKey: queryKeys.environment(environmentId),
    queryFn: () => apiFetch<Detail>(`/api/v1/environments/${environmentId}`),
  });
  if (error) return <ErrorText error={error} prefix="Could not load the environment" />;
  if (!env) return <p>Loading environment…</p>;
  const current = env.currentRevision;
  return (
    <article className="flex flex-col gap-6">
      <header>
        <h1 className="font-mono text-xl font-semibold">{env.key}</h1>
        <p className="text-sm text-slate-600">
          {env.repository.owner}/{env.repository.name} · base {env.baseCommit.slice(0, 12)} · {humanize(env.source)} ·{" "}
          {env._count.tasks} tasks
        </p>
      </header>
      <EnvironmentSource
        env={env}
        canEdit={canEdit}
        onChanged={() => client.invalidateQueries({ queryKey: queryKeys.environment(environmentId) })}
      />
      <section aria-labelledby="env-recipe" className="flex flex-col gap-2">
        <h2 id="env-recipe" className="text-base font-semibold">
          Recipe
        </h2>
        <RecipeEditor
          environmentId={env.id}
          revision={
            current
              ? {
                  number: current.number,
                  dockerfile: current.dockerfile,
                  evalScript: current.evalScript,
                  reason: current.reason,
                }
              : null
          }
          canEdit={canEdit}
          onSaved={() => client.invalidateQueries({ queryKey: queryKeys.environment(environmentId) })}
        />
      </section>
      <section aria-labelledby="env-builds" className="flex flex-col gap-2">
        <h2 id="env-builds" className="text-base font-semibold">
          Image builds
        </h2>
        <EnvironmentBuildPanel environmentId={env.id} />
      </section>
      <section aria-labelledby="env-revisions">
        <h2 id="env-revisions" className="mb-2 text-base font-semibold">
          Revisions ({env.revisions.length})
        </h2>
        <ol className="flex flex-col gap-1 text-sm" data-testid="revisions">
          {env.revisions.map((r) => (
            <li
              key={r.id}
              className="flex flex-wrap items-center gap-2 rounded border border-slate-200 bg-white px-2 py-1"
            >
              <span className="font-medium">#{r.number}</span>
              {r.id === env.currentRevisionId && <Badge tone="blue">current</Badge>}
              <span>{r.reason ?? "—"}</span>
              <span className="text-xs text-slate-500">by {r.author?.name ?? r.author?.email ?? "import"}</span>
              {r.builds.map((b) => (
                <Badge key={b.id} title={b.errorMessage ?? undefined}>
                  {b.status}
                </Badge>
              ))}
              <span className="ml-auto text-xs text-slate-500">
                <TimeAgo value={r.createdAt} />
              </span>
            </li>
          ))}
        </ol>
      </section>
      <section aria-labelledby="env-tasks">
        <h2 id="env-tasks" className="mb-2 text-base font-semibold">
          Tasks{" "}
          <Link
            className="text-sm font-normal text-blue-700 underline"
            href={`/tasks?environment=${encodeURIComponent(env.id)}`}
          >
            open as a list
          </Link>
        </h2>
        <ul className="flex flex-col gap-1 text-sm">
          {env.tasks.map((t) => (
            <li key={t.id} className="flex items-center gap-2">
              <Link href={`/tasks/${t.id}`} className="font-mono text-blue-700 underline">
                {t.instanceId}
              </Link>
              <Badge>{t.curationStatus}</Badge>
              <Badge>{t.automatedVerdict}</Badge>
              {t.failureClass && <span className="text-xs text-red-700">{humanize(t.failureClass)}</span>}
            </li>
          ))}
        </ul>
      </section>
    </article>
  );
}
