import type { PrismaClient } from "../../db/client";
import { requestValidation } from "../../runs/request-validation";
import { listTaskValidations } from "../../runs/list-task-validations";
import { NOT_BLIND } from "../../auth/blind";
import { api, type Connection } from "../connection";
import { CliError, EXIT, type ExitCode } from "../exit-codes";

// Queues validations through the workers' own use case (direct) or POST /api/v1/runs
// (server); --wait follows them to the automated verdict.

export type ValidateFlags = { instances: string[]; repeats?: number; wait: boolean; timeoutSeconds: number };

type Validations = {
  task: { automatedVerdict: string; failureClass: string | null };
  items: {
    groupId: string | null;
    active: boolean;
    runs: { kind: string; status: string; errorMessage: string | null }[];
  }[];
};

async function findTaskId(connection: Connection, db: PrismaClient | null, instanceId: string): Promise<string> {
  if (connection.mode === "database") {
    const task = await db!.task.findUnique({ where: { instanceId }, select: { id: true } });
    if (!task) throw new CliError(`No task with instance id "${instanceId}"`, EXIT.FAILED);
    return task.id;
  }
  const page = (await (await api(connection, `/api/v1/tasks?q=${encodeURIComponent(instanceId)}&limit=50`)).json()) as {
    items: { id: string; instanceId: string }[];
  };
  const match = page.items.find((t) => t.instanceId === instanceId);
  if (!match) throw new CliError(`No task with instance id "${instanceId}"`, EXIT.FAILED);
  return match.id;
}

async function validations(connection: Connection, db: PrismaClient | null, taskId: string): Promise<Validations> {
  if (connection.mode === "database")
    return (await listTaskValidations(db!, taskId, { limit: 5 }, NOT_BLIND)) as unknown as Validations;
  return (await (
    await api(connection, `/api/v1/runs?taskId=${encodeURIComponent(taskId)}&limit=5`)
  ).json()) as Validations;
}

export async function validateCommand(
  connection: Connection,
  db: PrismaClient | null,
  flags: ValidateFlags,
): Promise<ExitCode> {
  if (!flags.instances.length) throw new CliError("validate needs --instance INSTANCE_ID (repeatable)", EXIT.USAGE);
  let worst: ExitCode = EXIT.OK;
  for (const instanceId of flags.instances) {
    try {
      const taskId = await findTaskId(connection, db, instanceId);
      const queued =
        connection.mode === "database"
          ? await requestValidation(db!, { taskId, actorId: null, repeats: flags.repeats })
          : ((await (
              await api(connection, "/api/v1/runs", {
                method: "POST",
                headers: { "content-type": "application/json" },
                body: JSON.stringify({ taskId, repeats: flags.repeats ?? 1 }),
              })
            ).json()) as { groupId: string; runs: unknown[] });
      process.stdout.write(`${instanceId}\tQUEUED\tgroup=${queued.groupId}\truns=${queued.runs.length}\n`);
      if (!flags.wait) continue;
      const deadline = Date.now() + flags.timeoutSeconds * 1000;
      let state = await validations(connection, db, taskId);
      while (state.items.find((g) => g.groupId === queued.groupId)?.active) {
        if (Date.now() > deadline)
          throw new CliError(
            `${instanceId}: still running after ${flags.timeoutSeconds} s (it keeps running; check with swe-curator status)`,
            EXIT.PARTIAL,
          );
        await new Promise((resolve) => setTimeout(resolve, 2000));
        state = await validations(connection, db, taskId);
      }
      const verdict = state.task.automatedVerdict;
      process.stdout.write(
        `${instanceId}\t${verdict}${state.task.failureClass ? `\t${state.task.failureClass}` : ""}\n`,
      );
      if (verdict !== "VALID") worst = Math.max(worst, EXIT.PARTIAL) as ExitCode;
    } catch (error) {
      if (error instanceof CliError && error.exitCode === EXIT.UNREACHABLE) throw error;
      process.stderr.write(`${instanceId}: ${(error as Error).message}\n`);
      worst = Math.max(worst, error instanceof CliError ? error.exitCode : EXIT.FAILED) as ExitCode;
    }
  }
  return worst;
}
