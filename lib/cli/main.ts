import { parseArgs } from "node:util";
import { createPrismaClient, type PrismaClient } from "../db/client";
import { TaskSource } from "../db/enums";
import { resolveConnection } from "./connection";
import { CliError, EXIT, type ExitCode } from "./exit-codes";
import { importCommand } from "./commands/import-command";
import { exportCommand } from "./commands/export-command";
import { validateCommand } from "./commands/validate-command";
import { statusCommand } from "./commands/status-command";
import { ConfigError } from "../config/server-config";

export const HELP = `swe-curator — import, export and validate SWE-bench-style tasks

Usage:
  swe-curator import FILE|FOLDER… [--source SWE_GYM] [--generator MODEL] [--instance ID] [--json]
      Detects each file's format (SWE-bench instances JSON/JSONL, predictions, harness
      report.json and logs, OpenSWE rows/folders/.zip/.tar, SWE-Flow steps, SWE-agent .traj,
      OpenHands events/output.jsonl, Inspect logs, reviewer verdicts) and imports it.
      Prints one line per file: name, status, format, counts, batch id.
  swe-curator export [--view NAME] [--query "status=APPROVED&source=SWE_BENCH"] [--user EMAIL]
                     [--test-lists list|json-string] [--no-provenance] [-o FILE] > out.jsonl
                     [--include-unvalidated] [--verdict VALID,FLAKY] [--decision APPROVE|NONE] [--agreement 0.8]
      Approved tasks by default, validated ones only (verdict VALID; --include-unvalidated
      drops that), as SWE-bench-compatible JSONL with provenance. Says on stderr how many
      tasks it excluded and why. --agreement keeps tasks whose campaign annotators agreed that much.
      --format parquet -o FILE writes the Hugging Face Parquet layout instead.
  swe-curator validate --instance ID [--instance ID…] [--repeats N] [--wait] [--timeout SECONDS]
      Queues negative + positive control runs; --wait prints each task's automated verdict.
  swe-curator status [BATCH_ID]
      The latest imports, queued jobs and workers; or one import's report with its errors.

Connection (first that applies):
  --server URL --token TOKEN            a running server over its HTTP API and an API token
                                        (Settings → API tokens; scopes: read to export and
                                        check status, run to import and validate)
  SWE_CURATOR_URL + SWE_CURATOR_TOKEN   the same, from the environment
  DATABASE_URL                          the database itself
  (neither)                             the embedded database of \`npm start\` on this machine

Progress goes to stderr (a bar on a terminal, plain lines when piped); data and results to stdout.

Exit codes:
  0  done: every record imported or unchanged, export written, runs queued (or VALID with --wait)
  1  partly done: some records failed, or a validated task is not VALID
  2  usage: bad arguments, or no connection configured
  3  failed: unknown format / unreadable file / nothing imported, or the server refused the request
  4  unreachable: the database or server did not answer, or the token was refused
  130 interrupted: Ctrl-C cancelled the running import (records written before it stay)
`;

const SOURCES = Object.values(TaskSource) as string[];

export async function main(argv: string[]): Promise<ExitCode> {
  if (!argv.length || argv[0] === "help") {
    process.stdout.write(HELP);
    return argv.length ? EXIT.OK : EXIT.USAGE;
  }
  let parsed;
  try {
    // options may come before the command too: swe-curator --server URL --token T import FILE
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        source: { type: "string" },
        generator: { type: "string" },
        instance: { type: "string", multiple: true },
        json: { type: "boolean", default: false },
        view: { type: "string" },
        user: { type: "string" },
        query: { type: "string" },
        "test-lists": { type: "string" },
        "no-provenance": { type: "boolean", default: false },
        "include-unvalidated": { type: "boolean", default: false },
        verdict: { type: "string" },
        decision: { type: "string" },
        agreement: { type: "string" },
        output: { type: "string", short: "o" },
        format: { type: "string" },
        repeats: { type: "string" },
        wait: { type: "boolean", default: false },
        timeout: { type: "string" },
        server: { type: "string" },
        token: { type: "string" },
        help: { type: "boolean", short: "h", default: false },
      },
    });
  } catch (error) {
    throw new CliError(`${(error as Error).message}\n\n${HELP}`, EXIT.USAGE);
  }
  const { values } = parsed;
  const [command, ...positionals] = parsed.positionals;
  if (values.help || !command) {
    process.stdout.write(HELP);
    return EXIT.OK;
  }
  if (values.source && !SOURCES.includes(values.source))
    throw new CliError(`--source must be one of ${SOURCES.join(", ")}`, EXIT.USAGE);
  if (!["import", "export", "validate", "status"].includes(command))
    throw new CliError(`Unknown command "${command}"\n\n${HELP}`, EXIT.USAGE);

  const connection = await resolveConnection({ server: values.server, token: values.token });
  let db: PrismaClient | null = null;
  if (connection.mode === "database") {
    db = createPrismaClient(connection.url, 4);
    try {
      await db.$queryRaw`select 1`;
    } catch (error) {
      throw new CliError(
        `Cannot reach the database (${connection.describe}): ${(error as Error).message.split("\n").pop()}`,
        EXIT.UNREACHABLE,
      );
    }
  }
  try {
    switch (command) {
      case "import":
        return await importCommand(connection, db, positionals, {
          source: values.source as TaskSource | undefined,
          generator: values.generator,
          instance: values.instance?.[0],
          json: values.json,
        });
      case "export":
        return await exportCommand(connection, db, {
          view: values.view,
          user: values.user,
          query: values.query,
          testLists: values["test-lists"],
          provenance: !values["no-provenance"],
          output: values.output,
          format: values.format,
          validatedOnly: !values["include-unvalidated"],
          verdict: values.verdict,
          decision: values.decision,
          agreement: values.agreement,
        });
      case "validate":
        return await validateCommand(connection, db, {
          instances: [...(values.instance ?? []), ...positionals],
          repeats: values.repeats ? Number(values.repeats) : undefined,
          wait: values.wait,
          timeoutSeconds: values.timeout ? Number(values.timeout) : 1800,
        });
      default:
        return await statusCommand(connection, db, positionals[0]);
    }
  } finally {
    await db?.$disconnect();
  }
}

/** Runs one command and returns its exit code; a refusal becomes one sentence on stderr. */
export async function runCli(argv: string[]): Promise<number> {
  try {
    return await main(argv);
  } catch (error) {
    if (error instanceof CliError || error instanceof ConfigError) {
      process.stderr.write(`swe-curator: ${error.message}\n`);
      return error instanceof CliError ? error.exitCode : EXIT.USAGE;
    }
    process.stderr.write(`swe-curator: ${(error as Error)?.stack ?? error}\n`);
    return EXIT.FAILED;
  }
}

export async function run(argv = process.argv.slice(2)) {
  process.exitCode = await runCli(argv);
}

if (process.argv[1] && /lib[\\/]cli[\\/]main\.ts$/.test(process.argv[1])) void run();
