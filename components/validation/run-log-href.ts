/**
 * Where a run's log opens at a line (the evidence matrix links a test's deciding line): the
 * query tells the server the line, so the first HTML shows it marked; the fragment scrolls to
 * it before any script runs.
 */
export const runLogHref = (runId: string, line: number | null) =>
  `/runs/${runId}/log${line ? `?line=${line}#L${line}` : ""}`;
