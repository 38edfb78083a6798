import { pageContext, type PageContext } from "@/lib/http/page-context";
import { compareTrajectories, CompareQuerySchema } from "@/lib/trajectories/compare";
import { Prefetched, unlessRefused } from "@/components/ui/prefetched";
import { queryKeys } from "@/components/ui/query-keys";
import { CompareView } from "@/components/trajectory/compare-view";

const one = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value) ?? "";

/** The alignment as GET /api/v1/trajectories/compare computes it, so the first HTML shows the rows; a pair the route refuses is left to the client. */
async function comparePageData(a: string, b: string, { db, blind }: PageContext) {
  const query = CompareQuerySchema.safeParse({ a, b });
  if (!query.success) return [];
  const comparison = await unlessRefused(compareTrajectories(db, query.data.a, query.data.b, blind));
  return comparison
    ? ([[queryKeys.trajectoryCompare(a, b), comparison]] satisfies [readonly unknown[], unknown][])
    : [];
}

export default async function CompareTrajectoriesPage({
  searchParams,
}: {
  searchParams: Promise<{ a?: string | string[]; b?: string | string[] }>;
}) {
  // the route's permission (tasks:read), and the reader's blind set, as the route applies it
  const page = await pageContext();
  const query = await searchParams;
  const [a, b] = [one(query.a), one(query.b)];
  return (
    <Prefetched entries={await comparePageData(a, b, page)}>
      <CompareView a={a} b={b} />
    </Prefetched>
  );
}
