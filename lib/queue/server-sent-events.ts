import type { Db } from "../db/client";
import { jobLogEvents, type JobLogEvent, type LogTarget } from "./job-log-events";

const KEEPALIVE_MS = 15_000;

/**
 * Turns job log events into a text/event-stream response. Log events carry their seq as
 * the SSE id, so a reconnecting EventSource resumes after the last chunk it saw.
 */
export function serverSentEvents(events: AsyncGenerator<JobLogEvent>, signal: AbortSignal): Response {
  const encoder = new TextEncoder();
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      const send = (text: string) => {
        try {
          controller.enqueue(encoder.encode(text));
        } catch {
          // the client went away
        }
      };
      const keepalive = setInterval(() => send(": keepalive\n\n"), KEEPALIVE_MS);
      try {
        for await (const event of events) {
          const id = event.type === "log" ? `id: ${event.seq}\n` : "";
          send(`${id}event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
          if (signal.aborted) break;
        }
      } catch (error) {
        send(`event: failure\ndata: ${JSON.stringify({ message: error instanceof Error ? error.message : "the log stream failed" })}\n\n`);
      } finally {
        clearInterval(keepalive);
        try {
          controller.close();
        } catch {
          // already closed
        }
      }
    },
    cancel() {
      void events.return(undefined);
    },
  });
  return new Response(stream, {
    headers: { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache, no-transform", connection: "keep-alive", "x-accel-buffering": "no" },
  });
}

/** Where to resume: the Last-Event-ID header (EventSource reconnects) or ?after=. */
export function resumeAfter(request: Request, url: URL): number | undefined {
  const raw = request.headers.get("last-event-id") ?? url.searchParams.get("after");
  const value = raw === null ? NaN : Number(raw);
  return Number.isInteger(value) ? value : undefined;
}

/** The SSE response for a run's or a build's live log; an unknown id is a 404 before the stream starts. */
export async function jobLogResponse(db: Db, target: LogTarget, request: Request, url: URL): Promise<Response> {
  const events = jobLogEvents(db, target, { afterSeq: resumeAfter(request, url), signal: request.signal });
  const first = await events.next();
  async function* all() {
    if (!first.done) yield first.value;
    yield* events;
  }
  return serverSentEvents(all(), request.signal);
}
