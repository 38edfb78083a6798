import type { Db } from "../db/client";
import { isDatabaseUnavailable } from "../db/database-errors";
import type { LeasedTable } from "./row-lease";

export type LogSinkOptions = {
  db: Db;
  table: LeasedTable;
  id: string;
  workerId: string;
  /** the stored log keeps a quarter of this from the start and the rest from the end */
  capBytes: number;
  /** live chunks stop after this many characters (the stored log still gets the tail) */
  liveCapBytes: number;
  flushMs?: number;
  /** called with each flushed piece of text (whole lines), in order */
  onFlushed?: (text: string) => void;
};

export type LogSink = {
  write(text: string): void;
  close(): Promise<void>;
  /** the capped log to store on the row */
  finalLog(): { log: string; truncated: boolean };
};

const MAX_CHUNK = 64 * 1024;

const firstLine = (error: unknown) => {
  const text = error instanceof Error ? error.message : String(error);
  const lines = text
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean);
  // Prisma puts its invocation first and the database's words last
  return (lines.at(-1) ?? "unknown error").slice(0, 300);
};

/**
 * Collects a job's output: live LogChunk rows every flushMs (what the SSE endpoint
 * streams, inserted only while this worker still owns the row) and a capped copy for
 * the row itself, so a runaway test printing gigabytes costs neither memory nor disk.
 */
export async function createLogSink(options: LogSinkOptions): Promise<LogSink> {
  const column = options.table === "builds" ? "build_id" : "run_id";
  const [{ next }] = await options.db.$queryRawUnsafe<Array<{ next: number }>>(
    `select coalesce(max(seq), -1)::int + 1 as next from log_chunks where ${column} = $1`,
    options.id,
  );
  let seq = next;
  const headCap = Math.floor(options.capBytes / 4);
  const tailCap = options.capBytes - headCap;
  let head = "";
  let tail = "";
  let elided = 0;
  let pending = "";
  let liveSent = 0;
  let liveCapped = false;
  let chain: Promise<void> = Promise.resolve();
  /** why live chunks stopped being stored (the log store is full, …): the stored log says so */
  let liveLost: string | undefined;

  const keep = (text: string) => {
    if (head.length < headCap) {
      const room = headCap - head.length;
      head += text.slice(0, room);
      text = text.slice(room);
    }
    if (!text) return;
    tail += text;
    if (tail.length > 2 * tailCap) {
      elided += tail.length - tailCap;
      tail = tail.slice(-tailCap);
    }
  };

  const insertChunk = (content: string) => {
    if (liveLost) return;
    const chunkSeq = seq++;
    chain = chain
      .then(() =>
        options.db.$executeRawUnsafe(
          `insert into log_chunks (${column}, seq, content, created_at, updated_at)
           select $1, $2, $3, now(), now()
           where exists (select 1 from ${options.table} where id = $1 and status = 'RUNNING' and worker_id = $4)`,
          options.id,
          chunkSeq,
          content,
          options.workerId,
        ),
      )
      .then(
        () => undefined,
        (error) => {
          // a blip loses one chunk of the live view; a full log store stops it (the stored log is still complete)
          if (!isDatabaseUnavailable(error)) liveLost ??= firstLine(error);
        },
      );
  };

  const flush = (all: boolean) => {
    if (!pending) return;
    const cut = all || pending.length > MAX_CHUNK ? pending.length : pending.lastIndexOf("\n") + 1;
    if (cut <= 0) return;
    const text = pending.slice(0, cut);
    pending = pending.slice(cut);
    options.onFlushed?.(text);
    if (liveCapped) return;
    if (liveSent + text.length > options.liveCapBytes) {
      liveCapped = true;
      insertChunk(
        `\n[live log stopped at ${options.liveCapBytes} characters; the stored log keeps the start and the end]\n`,
      );
      return;
    }
    liveSent += text.length;
    insertChunk(text);
  };

  const timer = setInterval(() => flush(false), options.flushMs ?? 300);

  return {
    write(text: string) {
      keep(text);
      pending += text;
      if (pending.length > MAX_CHUNK) flush(false);
    },
    async close() {
      clearInterval(timer);
      flush(true);
      await chain;
    },
    finalLog() {
      const log = elided
        ? `${head}\n… [${elided} characters elided: the log exceeded ${options.capBytes} characters] …\n${tail}`
        : head + tail;
      if (!liveLost) return { log, truncated: elided > 0 };
      return {
        log: `${log}\n[swe-curator] log truncated: the live log stopped because it could not be stored (${liveLost}); this copy keeps ${elided ? "its start and its end" : "all of it"}\n`,
        truncated: true,
      };
    },
  };
}
