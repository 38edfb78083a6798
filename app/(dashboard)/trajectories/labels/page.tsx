import { pageContext, type PageContext } from "@/lib/http/page-context";
import { labelCounts, LabelStepsQuerySchema, stepsWithLabel } from "@/lib/trajectories/annotations";
import { Prefetched } from "@/components/ui/prefetched";
import { queryKeys, TRAJECTORY_LABEL_STEPS } from "@/components/ui/query-keys";
import { LabelPage } from "@/components/trajectory/label-page";

/** The label counts and the chosen label's steps, as GET /api/v1/trajectories/labels and …/labels/steps answer them, so the first HTML shows them. */
async function labelPageData(label: string | null, { db, blind }: PageContext) {
  const steps = label ? LabelStepsQuerySchema.safeParse({ label, limit: TRAJECTORY_LABEL_STEPS }) : null;
  const [counts, labelled] = await Promise.all([
    labelCounts(db),
    steps?.success ? stepsWithLabel(db, steps.data, blind) : null,
  ]);
  return [
    [queryKeys.trajectoryLabels(), { items: counts, nextCursor: null }],
    // a label the route refuses (blank): the client asks, and says the API's answer
    ...(labelled ? [[queryKeys.trajectoryLabelSteps(label), labelled] satisfies [readonly unknown[], unknown]] : []),
  ] satisfies [readonly unknown[], unknown][];
}

export default async function TrajectoryLabelsPage({
  searchParams,
}: {
  searchParams: Promise<{ label?: string | string[] }>;
}) {
  // the routes' permission (tasks:read), and the reader's blind set, as the route applies it
  const page = await pageContext();
  const { label: raw } = await searchParams;
  const label = (Array.isArray(raw) ? raw[0] : raw)?.slice(0, 60) || null;
  return (
    <Prefetched entries={await labelPageData(label, page)}>
      <LabelPage label={label} />
    </Prefetched>
  );
}
