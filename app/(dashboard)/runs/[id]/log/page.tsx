import { RunLog } from "@/components/validation/run-log";

export const metadata = { title: "Run log · SWE Curator" };

/** A run's log; `#L<n>` opens it at line n. The client reads it through GET /api/v1/runs/:id, which applies blindness. */
export default async function RunLogPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <RunLog runId={id} />;
}
