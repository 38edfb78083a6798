import { createHash } from "node:crypto";
import type { PrismaClient } from "../db/client";
import { logFailure } from "../errors/log-failure";
import { baseFileContainerLabels } from "../docker/container-labels";
import type { ImageFile } from "../docker/docker-engine";
import { basePathsOf } from "../tasks/unified-diff";
import type { WorkerContext } from "../worker-runtime/worker-context";

// The base files of an environment: every file its tasks' fix, test and candidate patches
// change, as the built image has it at the base commit (the image's work tree before any patch),
// so the task page can show whole files instead of hunks. Bytes are stored once per content
// (file_blobs, by SHA-256) and linked per environment and path (environment_base_files), with
// the build context they were read from: a new recipe re-reads them, an equal one does not.
// A candidate imported after the build gets its files on its own validation run, which reads
// only what is missing. A blob no environment links any more is deleted (collectOrphanedBlobs).

/** Bigger files are not stored: a diff of them is shown as hunks, with the reason. */
export const BASE_FILE_MAX_BYTES = 1024 * 1024;

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** The text of a file, or why it is not stored as text. */
function textOf(file: ImageFile): { text: string } | { skipped: string } {
  if ("skipped" in file) return file;
  if (file.content.includes(0)) return { skipped: "a binary file (it has NUL bytes)" };
  try {
    return { text: utf8.decode(file.content) };
  } catch {
    return { skipped: "not UTF-8 text" };
  }
}

/** The base paths the patches of these tasks (and their candidates) change, without repeats. */
async function wantedPaths(ctx: WorkerContext, scope: { environmentId: string; taskId?: string }): Promise<string[]> {
  const tasks = await ctx.db.task.findMany({
    where: { environmentId: scope.environmentId, ...(scope.taskId ? { id: scope.taskId } : {}) },
    select: { fixPatch: true, testPatch: true, candidatePatches: { select: { patch: true } } },
  });
  const paths = new Set<string>();
  for (const task of tasks) {
    for (const patch of [task.fixPatch, task.testPatch, ...task.candidatePatches.map((c) => c.patch)])
      for (const path of basePathsOf(patch)) paths.add(path);
  }
  return [...paths];
}

export type StoredBaseFiles = { read: number; stored: number; skipped: number };

/**
 * Reads the base files of an environment's tasks (or of one task) that are not yet stored
 * from this build context's image, and stores them. Cheap when nothing is missing: one query.
 */
export async function storeBaseFiles(
  ctx: WorkerContext,
  target: { environmentId: string; taskId?: string; image: string; contextHash: string },
): Promise<StoredBaseFiles> {
  const wanted = await wantedPaths(ctx, target);
  if (!wanted.length) return { read: 0, stored: 0, skipped: 0 };
  const known = await ctx.db.environmentBaseFile.findMany({
    where: { environmentId: target.environmentId, contextHash: target.contextHash, path: { in: wanted } },
    select: { path: true },
  });
  const have = new Set(known.map((file) => file.path));
  const missing = wanted.filter((path) => !have.has(path));
  if (!missing.length) return { read: 0, stored: 0, skipped: 0 };

  const files = await ctx.docker.readImageFiles({
    image: target.image,
    paths: missing,
    maxBytes: BASE_FILE_MAX_BYTES,
    labels: baseFileContainerLabels({ workerId: ctx.workerId, installation: ctx.installation }),
  });
  return saveBaseFiles(ctx.db, target, files);
}

/**
 * Stores files read from an image as an environment's base files. The blobs are inserted
 * before they are linked, in the same transaction: that is what keeps collectOrphanedBlobs
 * from deleting a blob between the two. When a link now names other content (a rebuild read a
 * changed file), the blob it named may have no reader left: it is collected at once.
 */
export async function saveBaseFiles(
  db: PrismaClient,
  target: { environmentId: string; contextHash: string },
  files: Record<string, ImageFile>,
): Promise<StoredBaseFiles> {
  const rows = Object.entries(files).map(([path, file]) => {
    const text = textOf(file);
    if ("skipped" in text) return { path, blob: null, skippedReason: text.skipped };
    const size = Buffer.byteLength(text.text);
    return {
      path,
      blob: { sha256: createHash("sha256").update(text.text).digest("hex"), content: text.text, size },
      skippedReason: null,
    };
  });
  const blobs = rows.flatMap((row) => (row.blob ? [row.blob] : []));
  const replaced = await db.$transaction(async (tx) => {
    // equal content is one blob, whichever environment or path it came from
    if (blobs.length) await tx.fileBlob.createMany({ data: blobs, skipDuplicates: true });
    const before = await tx.environmentBaseFile.findMany({
      where: { environmentId: target.environmentId, path: { in: rows.map((row) => row.path) } },
      select: { path: true, sha256: true },
    });
    for (const row of rows) {
      const link = {
        sha256: row.blob?.sha256 ?? null,
        size: row.blob?.size ?? null,
        skippedReason: row.skippedReason,
        contextHash: target.contextHash,
      };
      await tx.environmentBaseFile.upsert({
        where: { environmentId_path: { environmentId: target.environmentId, path: row.path } },
        create: { environmentId: target.environmentId, path: row.path, ...link },
        update: link,
      });
    }
    const now = new Map(rows.map((row) => [row.path, row.blob?.sha256 ?? null]));
    return before.some((link) => link.sha256 !== null && link.sha256 !== now.get(link.path));
  });
  // the files are stored whatever happens here; the worker's periodic pass collects what this misses
  if (replaced)
    await collectOrphanedBlobs(db).catch(
      logFailure(`collecting the blobs a new read of environment ${target.environmentId} replaced`),
    );
  return { read: rows.length, stored: blobs.length, skipped: rows.length - blobs.length };
}

/**
 * Deletes the blobs no environment links any more (a rebuild replaced them, an environment
 * was deleted); returns how many. A plain anti-join DELETE is not enough beside a concurrent
 * saveBaseFiles: its insert of a blob that already exists (ON CONFLICT DO NOTHING) takes no row
 * lock, so the blob could go between that insert and its link. SHARE ROW EXCLUSIVE conflicts
 * with the ROW EXCLUSIVE lock every writer of file_blobs holds until it commits: the collector
 * waits for the saves in flight, whose links the DELETE then sees (in READ COMMITTED its
 * snapshot is taken after the lock), and a save that starts meanwhile waits at its insert
 * until the collector commits, and then inserts the blob anew.
 */
export async function collectOrphanedBlobs(db: PrismaClient): Promise<number> {
  return db.$transaction(
    async (tx) => {
      await tx.$executeRaw`LOCK TABLE file_blobs IN SHARE ROW EXCLUSIVE MODE`;
      return tx.$executeRaw`DELETE FROM file_blobs b WHERE NOT EXISTS (SELECT 1 FROM environment_base_files f WHERE f.sha256 = b.sha256)`;
    },
    // the wait for saves in flight counts against Prisma's 5 s default
    { isolationLevel: "ReadCommitted", timeout: 60_000 },
  );
}
