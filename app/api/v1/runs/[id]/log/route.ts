import { defineRoute } from "@/lib/http/define-route";
import { prisma } from "@/lib/db/client";
import { PERMISSIONS } from "@/lib/auth/permissions";
import { jobLogEvents } from "@/lib/queue/job-log-events";
import { resumeAfter, serverSentEvents } from "@/lib/queue/server-sent-events";

export const dynamic = "force-dynamic";

/** The run's live log as server-sent events (log, status with phase, end). */
export const GET = defineRoute<{ id: string }>(PERMISSIONS["tasks:read"], async ({ request, url, params }) => {
  const events = jobLogEvents(prisma, { runId: params.id }, { afterSeq: resumeAfter(request, url), signal: request.signal });
  // surface a missing run as a 404 before the stream starts
  const first = await events.next();
  async function* all() {
    if (!first.done) yield first.value;
    yield* events;
  }
  return serverSentEvents(all(), request.signal);
});
