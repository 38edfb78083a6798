import { createWriteStream } from "node:fs";
import { once } from "node:events";
import type { Writable } from "node:stream";
import type { PrismaClient } from "../../db/client";
import {
  exportTasks,
  planExport,
  resolveExportFilters,
  ExportRequestSchema,
  type ParsedExportRequest,
} from "../../exports/export-tasks";
import { exportParquet } from "../../exports/export-parquet";
import { pipeline } from "node:stream/promises";
import { Readable } from "node:stream";
import { api, type Connection } from "../connection";
import { CliError, EXIT, type ExitCode } from "../exit-codes";

export type ExportFlags = {
  view?: string;
  user?: string;
  query?: string;
  testLists?: string;
  provenance: boolean;
  output?: string;
  format?: string;
  validatedOnly?: boolean;
  verdict?: string;
  decision?: string;
  agreement?: string;
};

/** The release filters as the API's query parameters (defaults left out). */
function releaseQuery(request: ParsedExportRequest, flags: ExportFlags): URLSearchParams {
  const query = new URLSearchParams();
  if (flags.view) query.set("view", flags.view);
  if (flags.query) query.set("query", flags.query);
  if (!request.validatedOnly) query.set("validatedOnly", "false");
  if (request.verdict.length) query.set("verdict", request.verdict.join(","));
  if (request.decision.length) query.set("decision", request.decision.join(","));
  if (request.agreement !== undefined) query.set("agreement", String(request.agreement));
  return query;
}

/** The server's exclusion sentence (a header, sent before the rows), on stderr. */
function tellExcluded(response: Response) {
  const sentence = response.headers.get("x-export-excluded");
  if (sentence) process.stderr.write(`${decodeURIComponent(sentence)}\n`);
}

async function write(out: Writable, chunk: string | Uint8Array) {
  if (!out.write(chunk)) await once(out, "drain");
}

/** A view in direct mode belongs to some user: --user picks whose, else the name must be unique. */
async function viewQuery(db: PrismaClient, name: string, user?: string): Promise<string> {
  const views = await db.savedView.findMany({
    where: { scope: "tasks", OR: [{ id: name }, { name }], ...(user ? { user: { email: user } } : {}) },
    include: { user: { select: { email: true } } },
  });
  if (!views.length) throw new CliError(`No saved task view named "${name}"${user ? ` for ${user}` : ""}`, EXIT.FAILED);
  if (views.length > 1)
    throw new CliError(
      `Several users have a view named "${name}" (${views.map((v) => v.user.email).join(", ")}); pass --user EMAIL`,
      EXIT.USAGE,
    );
  return views[0].query;
}

/** Direct mode: the selection (a view of some user's, or a query) and the release filters' plan, whose exclusions go to stderr first. */
async function directPlan(db: PrismaClient, flags: ExportFlags, request: ParsedExportRequest) {
  const query = flags.view ? await viewQuery(db, flags.view, flags.user) : flags.query;
  const { filters, release } = await resolveExportFilters(db, null, { ...request, view: undefined, query });
  const plan = await planExport(db, filters, { release });
  process.stderr.write(`${plan.report.sentence}\n`);
  return { filters, plan };
}

export async function exportCommand(
  connection: Connection,
  db: PrismaClient | null,
  flags: ExportFlags,
): Promise<ExitCode> {
  const parsed = ExportRequestSchema.safeParse({
    testLists: flags.testLists,
    provenance: flags.provenance,
    query: flags.query,
    view: flags.view,
    format: flags.format,
    validatedOnly: flags.validatedOnly ?? true,
    verdict: flags.verdict,
    decision: flags.decision,
    agreement: flags.agreement,
  });
  if (!parsed.success)
    throw new CliError(
      `Bad export options: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`,
      EXIT.USAGE,
    );
  if (parsed.data.format === "parquet") return exportParquetCommand(connection, db, flags, parsed.data);
  const out: Writable = flags.output ? createWriteStream(flags.output) : process.stdout;
  let count = 0;
  let lastReport = Date.now();
  const tell = (final = false) => {
    if (final || Date.now() - lastReport > 3000) {
      process.stderr.write(`exported ${count.toLocaleString("en-US")} tasks${final ? "" : "…"}\n`);
      lastReport = Date.now();
    }
  };
  if (connection.mode === "server") {
    const query = releaseQuery(parsed.data, flags);
    query.set("testLists", parsed.data.testLists);
    query.set("provenance", String(parsed.data.provenance));
    const response = await api(connection, `/api/v1/exports?${query}`);
    tellExcluded(response);
    const decoder = new TextDecoder();
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        count += decoder.decode(chunk, { stream: true }).split("\n").length - 1;
        await write(out, chunk);
        tell();
      }
    } catch (error) {
      // the server went away mid-download (restarted, crashed): say so instead of a stack trace
      const where = flags.output ? `${flags.output} holds` : "the output holds";
      throw new CliError(
        `The server stopped sending the export (${(error as Error).message}); ${where} only the first ${count.toLocaleString("en-US")} tasks and is incomplete: run the export again`,
        EXIT.UNREACHABLE,
      );
    }
  } else {
    const { filters, plan } = await directPlan(db!, flags, parsed.data);
    for await (const chunk of exportTasks(db!, filters, {
      testLists: parsed.data.testLists,
      provenance: parsed.data.provenance,
      plan,
    })) {
      count += chunk.split("\n").length - 1;
      await write(out, chunk);
      tell();
    }
  }
  if (flags.output) {
    out.end();
    await once(out, "finish");
  }
  tell(true);
  return EXIT.OK;
}

/** Parquet goes to a file (-o): its footer is written last, so it cannot stream to a pipe. */
async function exportParquetCommand(
  connection: Connection,
  db: PrismaClient | null,
  flags: ExportFlags,
  request: ParsedExportRequest,
): Promise<ExitCode> {
  if (!flags.output)
    throw new CliError("--format parquet needs -o FILE (Parquet cannot be streamed to stdout)", EXIT.USAGE);
  const provenance = request.provenance;
  let count = 0;
  if (connection.mode === "server") {
    const query = releaseQuery(request, flags);
    query.set("format", "parquet");
    query.set("provenance", String(provenance));
    const response = await api(connection, `/api/v1/exports?${query}`);
    tellExcluded(response);
    await pipeline(
      Readable.fromWeb(response.body as import("node:stream/web").ReadableStream),
      createWriteStream(flags.output),
    );
    process.stderr.write(`wrote ${flags.output}\n`);
    return EXIT.OK;
  }
  const { filters, plan } = await directPlan(db!, flags, request);
  count = await exportParquet(db!, filters, flags.output, {
    provenance,
    plan,
    onProgress: (n) => process.stderr.write(`exported ${n.toLocaleString("en-US")} tasks…\n`),
  });
  process.stderr.write(`exported ${count.toLocaleString("en-US")} tasks to ${flags.output}\n`);
  return EXIT.OK;
}
