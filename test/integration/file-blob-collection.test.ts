import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../helpers/database";
import { startTestWorker, waitFor } from "../helpers/worker";
import { collectOrphanedBlobs, saveBaseFiles } from "@/lib/builds/base-files";
import { createDockerEngine } from "@/lib/docker/dockerode-engine";

// Base files are stored once per content (file_blobs) and linked per environment and path.
// A blob no environment links any more is deleted, in real Postgres, and never one that a
// save running at the same moment is about to link.

const sha = (text: string) => createHash("sha256").update(text).digest("hex");
const file = (text: string) => ({ content: Buffer.from(text) });
const OPS = "def add(a, b):\n    return a + b\n";

let database: TestDatabase;
let repositoryId: string;

beforeAll(async () => {
  database = await createTestDatabase();
  repositoryId = (await database.prisma.repository.create({ data: { owner: "o", name: "blobs" } })).id;
});
afterAll(async () => {
  await database?.drop();
});

const environment = async (key: string) =>
  (await database.prisma.environment.create({ data: { key, repositoryId, baseCommit: "abc" } })).id;
const blobExists = async (text: string) =>
  (await database.prisma.fileBlob.count({ where: { sha256: sha(text) } })) === 1;
const linkOf = (environmentId: string, path: string) =>
  database.prisma.environmentBaseFile.findUniqueOrThrow({ where: { environmentId_path: { environmentId, path } } });

describe("collecting file blobs no environment links", () => {
  it("a rebuild that reads a changed file frees the old content at once; content another environment still links stays", async () => {
    const [first, second] = [await environment("o/blobs@rebuilt"), await environment("o/blobs@sharing")];
    await saveBaseFiles(
      database.prisma,
      { environmentId: first, contextHash: "recipe-1" },
      { "ops.py": file(OPS), "test_ops.py": file("def test_add(): ...\n") },
    );
    await saveBaseFiles(database.prisma, { environmentId: second, contextHash: "recipe-1" }, { "ops.py": file(OPS) });

    // the new recipe changed the test file; ops.py reads the same
    await saveBaseFiles(
      database.prisma,
      { environmentId: first, contextHash: "recipe-2" },
      { "ops.py": file(OPS), "test_ops.py": file("def test_add(): assert True\n") },
    );

    expect(await blobExists("def test_add(): ...\n")).toBe(false);
    expect(await blobExists("def test_add(): assert True\n")).toBe(true);
    expect(await blobExists(OPS)).toBe(true);
    expect(await linkOf(first, "test_ops.py")).toMatchObject({
      sha256: sha("def test_add(): assert True\n"),
      contextHash: "recipe-2",
    });
  });

  it("a deleted environment's blobs are removed by the worker's periodic pass, a shared one kept", async () => {
    const [kept, deleted] = [await environment("o/blobs@kept"), await environment("o/blobs@deleted")];
    await saveBaseFiles(
      database.prisma,
      { environmentId: kept, contextHash: "recipe-1" },
      { "shared.py": file("shared = 1\n") },
    );
    await saveBaseFiles(
      database.prisma,
      { environmentId: deleted, contextHash: "recipe-1" },
      { "shared.py": file("shared = 1\n"), "own.py": file("own = 1\n") },
    );
    await database.prisma.environment.delete({ where: { id: deleted } });
    expect(await blobExists("own = 1\n")).toBe(true);

    // no Docker needed: the pass is the database's
    const worker = await startTestWorker(database.url, {
      docker: createDockerEngine({ DOCKER_HOST: "unix:///nonexistent/docker.sock" }),
      config: { pruneIntervalMs: 200 },
    });
    try {
      await waitFor(
        "the worker to collect the deleted environment's blob",
        async () => !(await blobExists("own = 1\n")),
        20_000,
      );
    } finally {
      await worker.stop();
    }
    expect(await blobExists("shared = 1\n")).toBe(true);
    expect(await linkOf(kept, "shared.py")).toMatchObject({ sha256: sha("shared = 1\n") });
  });

  it("a collection that runs while a save has inserted a blob but not linked it yet leaves the blob, and the link is made", async () => {
    const environmentId = await environment("o/blobs@race");
    const ORPHAN = "def mean(values):\n    return sum(values) / len(values)\n";
    await saveBaseFiles(database.prisma, { environmentId, contextHash: "recipe-1" }, { "ops.py": file(OPS) });
    // the content the save is about to link is already stored and linked by nobody: an orphan the collector wants
    await database.prisma.fileBlob.create({
      data: { sha256: sha(ORPHAN), content: ORPHAN, size: Buffer.byteLength(ORPHAN) },
    });

    // hold the link row, so the save stops after its blob insert, at its link
    let release!: () => void;
    let holding!: () => void;
    const held = new Promise<void>((resolve) => (holding = resolve));
    const hold = database.prisma.$transaction(
      async (tx) => {
        await tx.$queryRaw`SELECT 1 FROM environment_base_files WHERE environment_id = ${environmentId} AND path = 'ops.py' FOR UPDATE`;
        holding();
        await new Promise<void>((resolve) => (release = resolve));
      },
      { timeout: 30_000 },
    );
    await held;
    const saving = saveBaseFiles(
      database.prisma,
      { environmentId, contextHash: "recipe-2" },
      { "ops.py": file(ORPHAN) },
    ).then(
      (report) => ({ report }),
      (error: Error) => ({ error: error.message }),
    );
    await waitFor("the save to wait at its link", async () => (await sessionsWaitingOnLocks()) >= 1);

    let collected: { removed: number } | { error: string } | undefined;
    const collecting = collectOrphanedBlobs(database.prisma).then(
      (removed) => (collected = { removed }),
      (error: Error) => (collected = { error: error.message }),
    );
    // the collector either waits for the save or (were it unsafe) deletes the orphan now
    await waitFor("the collector to wait or finish", async () => collected ?? (await sessionsWaitingOnLocks()) >= 2);
    release();
    await hold;

    expect(await saving).toEqual({ report: { read: 1, stored: 1, skipped: 0 } });
    await collecting;
    expect(collected).not.toHaveProperty("error");
    expect(await linkOf(environmentId, "ops.py")).toMatchObject({ sha256: sha(ORPHAN), contextHash: "recipe-2" });
    expect((await database.prisma.fileBlob.findUniqueOrThrow({ where: { sha256: sha(ORPHAN) } })).content).toBe(ORPHAN);
  });
});

/** Sessions of this test's database blocked on a lock right now. */
async function sessionsWaitingOnLocks(): Promise<number> {
  const [row] = await database.prisma.$queryRaw<{ waiting: number }[]>`
    SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`;
  return row.waiting;
}
