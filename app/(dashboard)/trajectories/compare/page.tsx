import { prisma } from "@/lib/db/client";
import { pageActor } from "@/lib/auth/session";
import { blindSetOf, type BlindSet } from "@/lib/auth/blind";
import { compareTrajectories, CompareQuerySchema } from "@/lib/trajectories/compare";
import { Prefetched, unlessRefused } from "@/components/ui/prefetched";
import { queryKeys } from "@/components/ui/query-keys";
import { CompareView } from "@/components/trajectory/compare-view";

const one = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value) ?? "";

/** The alignment as GET /api/v1/trajectories/compare computes it, so the first HTML shows the rows; a pair the route refuses is left to the client. */
async function comparePageData(a: string, b: string, blind: BlindSet) {
  const query = CompareQuerySchema.safeParse({ a, b });
  if (!query.success) return [];
  const comparison = await unlessRefused(compareTrajectories(prisma, query.data.a, query.data.b, blind));
  return comparison ? ([[queryKeys.trajectoryCompare(a, b), comparison]] satisfies [readonly unknown[], unknown][]) : [];
}

export default async function CompareTrajectoriesPage({ searchParams }: { searchParams: Promise<{ a?: string | string[]; b?: string | string[] }> }) {
  // the route's permission (tasks:read), and the reader's blind set, as the route applies it
  const reader = await pageActor();
  const query = await searchParams;
  const [a, b] = [one(query.a), one(query.b)];
  return (
    <Prefetched entries={await comparePageData(a, b, blindSetOf(prisma, reader))}>
      <CompareView a={a} b={b} />
    </Prefetched>
  );
}
