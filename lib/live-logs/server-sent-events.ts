import type { Db } from "../db/client";
import { AppError } from "../errors/app-error";
import { jobLogEvents, type LogTarget } from "./job-log-events";
import { serverConfig } from "../config/server-config";

const KEEPALIVE_MS = 15_000;

/** Live-log streams one user may hold open on this web process (each holds a database poll). */
const openStreams = new Map<string, number>();

/** Counts a user's new stream; refuses (429) past the cap. Returns the release, safe to call twice. */
export function admitLiveStream(userId: string, max = serverConfig().LIVE_LOG_STREAMS_PER_USER): () => void {
  const open = openStreams.get(userId) ?? 0;
  if (open >= max)
    throw new AppError(
      "TOO_MANY_REQUESTS",
      `You already have ${open} live logs open (the limit is ${max}); close a tab with a live log and try again`,
    );
  openStreams.set(userId, open + 1);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const left = (openStreams.get(userId) ?? 1) - 1;
    if (left > 0) openStreams.set(userId, left);
    else openStreams.delete(userId);
  };
}

/**
 * Turns job log events into a text/event-stream response. Log events carry their seq as
 * the SSE id, so a reconnecting EventSource resumes after the last chunk it saw.
 */
export function serverSentEvents<E extends { type: string; seq?: number }>(
  events: AsyncGenerator<E>,
  signal: AbortSignal,
  onClose: () => void = () => {},
): Response {
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
          const id = event.seq !== undefined ? `id: ${event.seq}\n` : "";
          send(`${id}event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
          if (signal.aborted) break;
        }
      } catch (error) {
        send(
          `event: failure\ndata: ${JSON.stringify({ message: error instanceof Error ? error.message : "the log stream failed" })}\n\n`,
        );
      } finally {
        clearInterval(keepalive);
        onClose();
        try {
          controller.close();
        } catch {
          // already closed
        }
      }
    },
    cancel() {
      onClose();
      void events.return(undefined);
    },
  });
  return new Response(stream, {
    headers: {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache, no-transform",
      connection: "keep-alive",
      "x-accel-buffering": "no",
    },
  });
}

/** Any polled event stream (a replay's progress) as SSE, under the same per-user cap as the live logs. */
export async function liveEventsResponse<E extends { type: string; seq?: number }>(
  events: AsyncGenerator<E>,
  request: Request,
  userId: string,
): Promise<Response> {
  const release = admitLiveStream(userId);
  try {
    const first = await events.next();
    async function* all() {
      if (!first.done) yield first.value;
      yield* events;
    }
    return serverSentEvents(all(), request.signal, release);
  } catch (error) {
    release();
    throw error;
  }
}

/** Where to resume: the Last-Event-ID header (EventSource reconnects) or ?after=. */
export function resumeAfter(request: Request, url: URL): number | undefined {
  const raw = request.headers.get("last-event-id") ?? url.searchParams.get("after");
  const value = raw === null ? NaN : Number(raw);
  return Number.isInteger(value) ? value : undefined;
}

/**
 * The SSE response for a run's or a build's live log; an unknown id is a 404 before the
 * stream starts, and a user past LIVE_LOG_STREAMS_PER_USER open streams gets a 429.
 */
export async function jobLogResponse(
  db: Db,
  target: LogTarget,
  request: Request,
  url: URL,
  userId: string,
): Promise<Response> {
  return liveEventsResponse(
    jobLogEvents(db, target, { afterSeq: resumeAfter(request, url), signal: request.signal }),
    request,
    userId,
  );
}
