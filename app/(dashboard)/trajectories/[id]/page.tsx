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

export default async function TrajectoryPage({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: Promise<Query> }) {
  const { id } = await params;
  return <TrajectoryInspector trajectoryId={id} initial={readLink(await searchParams)} />;
}
