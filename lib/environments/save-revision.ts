import { z } from "zod";
import type { PrismaClient } from "../db/client";
import { AppError, notFound } from "../errors/app-error";
import { addEnvironmentRevision } from "./add-revision";

// A curator's edit of a build recipe is a new EnvironmentRevision, never an overwrite.
// Concurrency is on the revision number: the edit names the revision it started from, and
// (environment_id, number) is unique, so of two edits from the same base only one lands.

export const SaveRevisionInputSchema = z.object({
  /** the revision number the curator edited */
  baseRevision: z.number().int().min(1),
  dockerfile: z.string().min(1, "the Dockerfile cannot be empty").max(200_000),
  evalScript: z.string().min(1, "the eval script cannot be empty").max(200_000),
  reason: z.string().trim().min(3, "say why you changed the recipe (at least 3 characters)").max(2_000),
});
export type SaveRevisionInput = z.input<typeof SaveRevisionInputSchema>;

export type RevisionConflictDetails = {
  entity: "environment_revision";
  environmentId: string;
  yourBaseRevision: number;
  current: {
    number: number;
    reason: string | null;
    author: string | null;
    createdAt: Date;
    dockerfile: string;
    evalScript: string;
  };
};

async function revisionConflict(db: PrismaClient, environmentId: string, base: number): Promise<AppError> {
  const env = await db.environment.findUnique({
    where: { id: environmentId },
    select: {
      currentRevision: {
        select: {
          number: true,
          reason: true,
          createdAt: true,
          dockerfile: true,
          evalScript: true,
          author: { select: { name: true, email: true } },
        },
      },
    },
  });
  const current = env?.currentRevision;
  const author = current?.author?.name ?? current?.author?.email ?? null;
  const details: RevisionConflictDetails | undefined = current
    ? { entity: "environment_revision", environmentId, yourBaseRevision: base, current: { ...current, author } }
    : undefined;
  return new AppError(
    "CONFLICT",
    `Someone saved revision ${current?.number ?? "?"} of this environment${author ? ` (${author}${current?.reason ? `: "${current.reason}"` : ""})` : ""} while you were editing revision ${base}. Your text was kept: compare it with theirs and save again.`,
    details,
  );
}

/** Thrown inside the transaction so it rolls back; turned into a CONFLICT with details outside it. */
class StaleBaseRevision extends Error {}

const isUniqueViolation = (error: unknown) => (error as { code?: string })?.code === "P2002";

/** Saves an edited Dockerfile / eval script as the environment's next revision and makes it current. */
export async function saveEnvironmentRevision(
  db: PrismaClient,
  actor: { id: string },
  environmentId: string,
  rawInput: SaveRevisionInput,
) {
  const input = SaveRevisionInputSchema.parse(rawInput);
  try {
    return await db.$transaction(async (tx) => {
      const env = await tx.environment.findUnique({
        where: { id: environmentId },
        select: {
          id: true,
          currentRevision: { select: { id: true, number: true, dockerfile: true, evalScript: true } },
        },
      });
      if (!env) throw notFound(`Environment ${environmentId}`);
      const current = env.currentRevision;
      const latest = await tx.environmentRevision.findFirst({
        where: { environmentId },
        orderBy: { number: "desc" },
        select: { number: true },
      });
      if ((current?.number ?? 0) !== input.baseRevision || (latest?.number ?? 0) !== input.baseRevision)
        throw new StaleBaseRevision();
      if (current && current.dockerfile === input.dockerfile && current.evalScript === input.evalScript) {
        throw new AppError(
          "UNPROCESSABLE",
          "Nothing changed: the Dockerfile and eval script are the same as the current revision",
        );
      }
      const number = input.baseRevision + 1;
      const revision = await addEnvironmentRevision(
        tx,
        {
          environmentId,
          number,
          dockerfile: input.dockerfile,
          evalScript: input.evalScript,
          reason: input.reason,
          authorId: actor.id,
        },
        {
          action: "environment.revised",
          before: current
            ? { revision: current.number, dockerfile: current.dockerfile, evalScript: current.evalScript }
            : null,
          after: { revision: number, reason: input.reason, dockerfile: input.dockerfile, evalScript: input.evalScript },
        },
      );
      return {
        revision: { id: revision.id, number: revision.number, reason: revision.reason, createdAt: revision.createdAt },
        dockerfileChanged: current?.dockerfile !== input.dockerfile,
      };
    });
  } catch (error) {
    if (error instanceof StaleBaseRevision || isUniqueViolation(error))
      throw await revisionConflict(db, environmentId, input.baseRevision);
    throw error;
  }
}
