import { sleepUntilAborted as sleep } from "@/lib/async/sleep-until-aborted";
import type { Db, JobStatus, RunPhase } from "../db/client";
import { notFound } from "../errors/app-error";

export type LogTarget = { runId: string } | { buildId: string };

export type JobLogEvent =
  | { type: "log"; seq: number; content: string }
  | { type: "status"; status: JobStatus; phase: RunPhase | null }
  | { type: "end"; status: JobStatus };

const FINISHED: JobStatus[] = ["SUCCEEDED", "FAILED", "CANCELLED"];
const PAGE = 200;

async function currentState(db: Db, target: LogTarget): Promise<{ status: JobStatus; phase: RunPhase | null } | null> {
  if ("runId" in target)
    return db.validationRun.findUnique({ where: { id: target.runId }, select: { status: true, phase: true } });
  const build = await db.build.findUnique({ where: { id: target.buildId }, select: { status: true } });
  return build ? { status: build.status, phase: null } : null;
}

// node's own abortable timer: it drops its abort listener when it fires, so a long wait
// on a long-lived signal (a worker's shutdown, a browser's request) does not pile them up

/**
 * A job's live log as events: the chunks after `afterSeq` as they arrive, status and
 * phase changes, and a final `end` once the job has finished and every chunk was sent.
 * Polls (a chunk lands every ~300 ms while output flows); stops when the signal aborts.
 */
export async function* jobLogEvents(
  db: Db,
  target: LogTarget,
  options: { afterSeq?: number; signal?: AbortSignal; pollMs?: number } = {},
): AsyncGenerator<JobLogEvent> {
  let afterSeq = options.afterSeq ?? -1;
  let last: string | undefined;
  const where = "runId" in target ? { runId: target.runId } : { buildId: target.buildId };
  if (!(await currentState(db, target))) throw notFound("runId" in target ? "That validation run" : "That build");
  while (!options.signal?.aborted) {
    // read the state before the chunks: a job that finished in between still has all its chunks read below
    const state = await currentState(db, target);
    if (!state) return;
    const chunks = await db.logChunk.findMany({
      where: { ...where, seq: { gt: afterSeq } },
      orderBy: { seq: "asc" },
      take: PAGE,
      select: { seq: true, content: true },
    });
    for (const chunk of chunks) {
      afterSeq = chunk.seq;
      yield { type: "log", seq: chunk.seq, content: chunk.content };
    }
    const key = `${state.status}/${state.phase}`;
    if (key !== last) {
      last = key;
      yield { type: "status", status: state.status, phase: state.phase };
    }
    if (chunks.length === PAGE) continue;
    if (FINISHED.includes(state.status)) {
      yield { type: "end", status: state.status };
      return;
    }
    await sleep(options.pollMs ?? 400, options.signal);
  }
}
