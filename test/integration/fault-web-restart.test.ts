import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requestValidation } from "@/lib/runs/request-validation";
import { createTestDatabase, type TestDatabase } from "../helpers/database";
import { loadDemoTasks } from "../helpers/demo-environments";
import { freePort } from "../helpers/free-port";
import { apiTokenFor } from "../helpers/route-call";
import { stopProcess, waitFor } from "../helpers/worker";

// Issue 11 item 5: the web process restarts while a curator follows a run's live log (the
// browser's EventSource reconnects with Last-Event-ID; the restarted process must resume
// after the last chunk seen: nothing twice, nothing missing) and while the CLI downloads an
// export (it must say plainly that the download broke, not print a stack trace).
const ROOT = path.resolve(import.meta.dirname, "../..");

type SseEvent = { id?: string; event: string; data: { seq?: number; status?: string } };

/** Reads server-sent events until `until` says stop or the stream ends or breaks. */
/** Bytes the web server's sockets on `port` have written that the other side has not read yet (ss's Send-Q). */
function serverSendQueueBytes(port: number): number {
  const sockets =
    spawnSync("ss", ["-tnH", "state", "established", `( sport = :${port} )`], { encoding: "utf8" }).stdout ?? "";
  return Math.max(
    0,
    ...sockets
      .split("\n")
      .filter(Boolean)
      .map((line) => Number(line.trim().split(/\s+/)[1]) || 0),
  );
}

async function readEvents(
  response: Response,
  until: (events: SseEvent[]) => boolean,
): Promise<{ events: SseEvent[]; broke: boolean }> {
  const events: SseEvent[] = [];
  const decoder = new TextDecoder();
  let buffer = "";
  try {
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      buffer += decoder.decode(chunk, { stream: true });
      let end;
      while ((end = buffer.indexOf("\n\n")) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const event = /^event: (.*)$/m.exec(block)?.[1];
        if (!event) continue;
        events.push({ id: /^id: (.*)$/m.exec(block)?.[1], event, data: JSON.parse(/^data: (.*)$/m.exec(block)![1]) });
      }
      if (until(events)) return { events, broke: false };
    }
    return { events, broke: false };
  } catch {
    return { events, broke: true };
  }
}

describe("the web process restarts under a live-log stream", () => {
  let database: TestDatabase;
  let web: ChildProcess | undefined;
  let port: number;
  let token: string;

  const startWeb = async () => {
    web = spawn(process.execPath, ["--import", "tsx", "test/helpers/route-server.ts"], {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "inherit"],
      env: { ...process.env, DATABASE_URL: database.url, ROUTE_SERVER_PORT: String(port) },
    });
    await new Promise<void>((resolve) =>
      web!.stdout!.on("data", (chunk) => String(chunk).includes("ready") && resolve()),
    );
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    port = await freePort();
    token = (await apiTokenFor(database.prisma, "VIEWER")).token;
    await startWeb();
  });
  afterAll(async () => {
    await stopProcess(web);
    await database?.drop();
  });

  it("resumes after the last chunk seen, by Last-Event-ID", async () => {
    const tasks = await loadDemoTasks(database.prisma);
    const { runs } = await requestValidation(database.prisma, { taskId: tasks["demo__calc-1"].id, actorId: null });
    const runId = runs[0].id;
    // a run in progress, as a worker leaves it: RUNNING with its first 100 chunks
    await database.prisma.validationRun.update({
      where: { id: runId },
      data: { status: "RUNNING", workerId: "w", heartbeatAt: new Date() },
    });
    const addChunks = (from: number, to: number) =>
      database.prisma.logChunk.createMany({
        data: Array.from({ length: to - from }, (_, i) => ({ runId, seq: from + i, content: `line ${from + i}\n` })),
      });
    await addChunks(0, 100);
    const url = `http://127.0.0.1:${port}/api/v1/runs/${runId}/log`;
    const headers = { authorization: `Bearer ${token}` };

    const first = await fetch(url, { headers });
    let received = 0;
    const reading = readEvents(first, (events) => {
      received = events.length;
      return false;
    });
    // the stream has sent the first 100 chunks and is polling for more
    await waitFor("the first 100 log chunks to arrive", async () => received >= 100);
    await stopProcess(web, "SIGKILL");
    const before = await reading;
    expect(before.broke || before.events.at(-1)?.event !== "end").toBe(true);
    const lastId = before.events.filter((e) => e.event === "log").at(-1)!.id!;
    expect(Number(lastId)).toBe(99);

    // the worker goes on while the web is down
    await addChunks(100, 150);
    await startWeb();
    await database.prisma.validationRun.update({
      where: { id: runId },
      data: { status: "SUCCEEDED", finishedAt: new Date() },
    });
    const resumed = await fetch(url, { headers: { ...headers, "last-event-id": lastId } });
    expect(resumed.status).toBe(200);
    const after = await readEvents(resumed, (events) => events.at(-1)?.event === "end");

    const seqs = [...before.events, ...after.events].filter((e) => e.event === "log").map((e) => e.data.seq);
    expect(seqs).toEqual(Array.from({ length: 150 }, (_, i) => i));
    expect(after.events.at(-1)).toMatchObject({ event: "end", data: { status: "SUCCEEDED" } });
  });

  it("a broken export download ends the CLI with a sentence and exit 4, not a stack trace", async () => {
    const TASK_BYTES = 4_000_000;
    // 14 approved, validated tasks (what an export takes by default) of about 4 MB each: far more than the pipes, sockets and stream buffers
    // between us hold (with 1 MB each a quiet machine buffered the whole export before the kill)
    await database.prisma.$executeRawUnsafe(
      `update tasks set curation_status = 'APPROVED', automated_verdict = 'VALID', problem_statement = repeat('x', ${TASK_BYTES})`,
    );
    const cli = spawn(process.execPath, ["--import", "tsx", "lib/cli/main.ts", "export"], {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, SWE_CURATOR_URL: `http://127.0.0.1:${port}`, SWE_CURATOR_TOKEN: token },
    });
    let stderr = "";
    cli.stderr!.on("data", (chunk) => (stderr += chunk));
    // we do not read its output yet, so the CLI and then the server wait mid-download
    await new Promise((resolve) => cli.stdout!.once("readable", resolve));
    await waitFor(
      "the server to be held up by the unread download (64 KB waiting in its socket)",
      async () => serverSendQueueBytes(port) >= 65_536,
    );
    await stopProcess(web, "SIGKILL");
    const exited = new Promise<number | null>((resolve) => cli.once("exit", resolve));
    let received = 0;
    cli.stdout!.on("data", (chunk: Buffer) => (received += chunk.length));
    expect(await exited).toBe(4);
    expect(received).toBeLessThan(14 * TASK_BYTES);
    expect(stderr).toMatch(
      /The server stopped sending the export \(.*\); the output holds only the first \d+ tasks and is incomplete: run the export again/,
    );
    expect(stderr).not.toMatch(/\n\s+at /);
    await startWeb();
  });
});
