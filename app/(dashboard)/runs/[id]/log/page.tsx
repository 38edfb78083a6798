import { pageContext } from "@/lib/http/page-context";
import { getValidationRun } from "@/lib/runs/list-task-validations";
import { Prefetched, unlessRefused } from "@/components/ui/prefetched";
import { queryKeys } from "@/components/ui/query-keys";
import { RunLog } from "@/components/validation/run-log";

export const metadata = { title: "Run log · SWE Curator" };

/** A line number from the URL's ?line=, or null for none or one that is not a line number. */
const lineOf = (value: string | string[] | undefined) =>
  typeof value === "string" && /^[1-9]\d{0,8}$/.test(value) ? Number(value) : null;

/**
 * A run's log; `?line=<n>#L<n>` opens it at line n (a bare `#L<n>` too, once the page runs). The run is read here, as the reader may see it
 * (blindness applied), so the first HTML carries the log instead of a "Loading log…" that
 * waits for hydration and a second request; the fragment never reaches the server, so the
 * client opens the line.
 */
export default async function RunLogPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const [{ id }, query] = await Promise.all([params, searchParams]);
  const { db, blind } = await pageContext();
  const run = await unlessRefused(getValidationRun(db, id, blind));
  return (
    <Prefetched entries={run ? [[queryKeys.run(id), run]] : []}>
      <RunLog runId={id} initialLine={lineOf(query.line)} />
    </Prefetched>
  );
}
