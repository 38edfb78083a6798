import type { Db } from "../db/client";
import { notFound } from "../errors/app-error";

// Reading a task's base files (stored by lib/builds/base-files.ts after a build). They hold
// the repository's code only, never a verdict, so a blind reader sees them like anyone else.

export type BaseFile =
  | { path: string; stored: true; content: string; sha256: string; size: number }
  | { path: string; stored: false; reason: string };

/**
 * The stored path a requested one names: itself, or the longest stored path it ends with — a
 * trajectory names files as the agent saw them (`/testbed/calc/ops.py`), patches relative to
 * the work tree (`calc/ops.py`).
 */
export function storedPathFor(requested: string, stored: string[]): string | null {
  if (stored.includes(requested)) return requested;
  const matches = stored.filter((path) => requested.endsWith(`/${path}`));
  return matches.sort((a, b) => b.length - a.length)[0] ?? null;
}

/** One file of a task's environment as the image has it at the base commit, or why it is not stored. */
export async function baseFileOfTask(db: Db, idOrInstanceId: string, path: string): Promise<BaseFile> {
  const task = await db.task.findFirst({
    where: { OR: [{ id: idOrInstanceId }, { instanceId: idOrInstanceId }] },
    select: { environmentId: true },
  });
  if (!task) throw notFound(`Task ${idOrInstanceId}`);
  const paths = await db.environmentBaseFile.findMany({
    where: { environmentId: task.environmentId },
    select: { path: true },
  });
  const stored = storedPathFor(
    path,
    paths.map((file) => file.path),
  );
  if (!stored)
    return {
      path,
      stored: false,
      reason:
        "The base files are stored when the environment is built or the task is validated; this file has not been read from an image yet.",
    };
  const file = await db.environmentBaseFile.findUniqueOrThrow({
    where: { environmentId_path: { environmentId: task.environmentId, path: stored } },
    select: { skippedReason: true, blob: { select: { sha256: true, content: true, size: true } } },
  });
  if (!file.blob)
    return {
      path: stored,
      stored: false,
      reason: `The base file is not stored: ${file.skippedReason ?? "unknown reason"}.`,
    };
  return { path: stored, stored: true, ...file.blob };
}
