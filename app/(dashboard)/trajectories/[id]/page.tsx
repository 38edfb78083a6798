import { pageContext, type PageContext } from "@/lib/http/page-context";
import { getTrajectory, getTrajectoryStep, listStepWindow } from "@/lib/trajectories/get-trajectory";
import { Prefetched, unlessRefused } from "@/components/ui/prefetched";
import { queryKeys, TRAJECTORY_WINDOW } from "@/components/ui/query-keys";
import { TrajectoryInspector, type InspectorLink } from "@/components/trajectory/trajectory-inspector";
import { parseLineRange } from "@/lib/trajectories/highlight";
import { STEP_KINDS, type StepKind } from "@/lib/trajectories/step-kind";

type Query = Record<string, string | string[] | undefined>;
const one = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value) ?? null;

/** A permalink: ?step=N (from 1), &lines=a-b of its observation, &kind=, &q= and &regex=1. */
function readLink(query: Query): InspectorLink {
  const step = Number(one(query.step));
  const kind = one(query.kind);
  return {
    step: Number.isInteger(step) && step >= 1 ? step - 1 : null,
    lines: parseLineRange(one(query.lines)),
    q: one(query.q)?.slice(0, 200) || null,
    regex: one(query.regex) === "1",
    kind: STEP_KINDS.includes(kind as StepKind) ? (kind as StepKind) : null,
  };
}

/** A step whose texts are longer than this is left to the client: the page's HTML would carry it twice (markup and data). */
const STEP_INLINE_CHARS = 200_000;

/**
 * The trajectory, the opening step and the rows around it, read here as the API routes read
 * them (GET /api/v1/trajectories/:id, …/steps/:index and …/steps?from=), so the first HTML
 * shows the step instead of the browser asking for them after its JavaScript has loaded.
 */
async function trajectoryPageData(id: string, link: InspectorLink, { db, blind }: PageContext) {
  const step = link.step ?? 0;
  const window = async (kind: StepKind | null, block: number) => {
    const from = block * TRAJECTORY_WINDOW;
    const answer = await listStepWindow(db, id, { from, limit: TRAJECTORY_WINDOW, ...(kind ? { kind } : {}) });
    // what …/steps answers: the window and the cursor of the next one
    return [
      queryKeys.trajectoryWindow(id, kind, block),
      {
        ...answer,
        nextCursor: answer.items.length === TRAJECTORY_WINDOW ? String(answer.offset + answer.items.length) : null,
      },
    ] satisfies [readonly unknown[], unknown];
  };
  // filtered, the list opens at its first rows (the link's step is placed by the client, which asks where it stands); unfiltered, at the step's window, and at the top's
  const blocks = link.kind ? [0] : [...new Set([0, Math.floor(step / TRAJECTORY_WINDOW)])];
  // an unknown trajectory or step is said by the client, from the API's own answer
  const [trajectory, full, ...windows] = await Promise.all([
    unlessRefused(getTrajectory(db, id, blind)),
    unlessRefused(getTrajectoryStep(db, id, step)),
    ...blocks.map((block) => window(link.kind, block)),
  ]);
  if (!trajectory) return [];
  const size = full
    ? (full.thought?.length ?? 0) + (full.action?.length ?? 0) + (full.observation?.length ?? 0)
    : Infinity;
  return [
    [queryKeys.trajectory(id), trajectory],
    ...(full && size <= STEP_INLINE_CHARS
      ? [[queryKeys.trajectoryStep(id, step), full] satisfies [readonly unknown[], unknown]]
      : []),
    ...windows,
  ] satisfies [readonly unknown[], unknown][];
}

export default async function TrajectoryPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<Query>;
}) {
  const { id } = await params;
  // the routes' permission (tasks:read), and the reader's blind set, as the route applies it
  const page = await pageContext();
  const link = readLink(await searchParams);
  return (
    <Prefetched entries={await trajectoryPageData(id, link, page)}>
      <TrajectoryInspector trajectoryId={id} initial={link} />
    </Prefetched>
  );
}
