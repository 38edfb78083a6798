import { readdir, readFile, stat } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import type { Db, Prisma } from "../db/client";
import { buildContextHash, defaultBuildArgs } from "./build-context-hash";
import { addEnvironmentRevision } from "./add-revision";

// prisma/seed/demo: repos/<repo>/ (a tiny project), environments/<env>/{Dockerfile, eval.sh,
// environment.json}, tasks/<instance>/{task.json, fix.patch, test.patch}. The seed and the
// tests both load it through here, so the demo a user sees is the one the tests validate.

const DemoEnvironmentSchema = z.object({
  key: z.string().min(1),
  repository: z.string().regex(/^[^/]+\/[^/]+$/, "owner/name"),
  baseCommit: z.string().min(1),
  repo: z.string().min(1),
  timeoutSeconds: z.number().int().positive().optional(),
  memoryMb: z.number().int().positive().optional(),
  cpus: z.number().positive().optional(),
  description: z.string().optional(),
});

const DemoTaskSchema = z.object({
  instanceId: z.string().min(1),
  environment: z.string().min(1),
  difficulty: z.enum(["EASY", "MEDIUM", "HARD", "VERY_HARD"]).optional(),
  failToPass: z.array(z.string()),
  passToPass: z.array(z.string()),
  expected: z.string().optional(),
  problemStatement: z.string(),
});

export type DemoTask = Prisma.TaskGetPayload<Record<string, never>>;

async function filesUnder(dir: string, prefix: string): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  for (const name of (await readdir(dir)).sort()) {
    const full = path.join(dir, name);
    if ((await stat(full)).isDirectory()) Object.assign(files, await filesUnder(full, `${prefix}${name}/`));
    else files[`${prefix}${name}`] = await readFile(full, "utf8");
  }
  return files;
}

async function loadEnvironment(db: Db, demoDir: string, folder: string) {
  const dir = path.join(demoDir, "environments", folder);
  const meta = DemoEnvironmentSchema.parse(JSON.parse(await readFile(path.join(dir, "environment.json"), "utf8")));
  const dockerfile = await readFile(path.join(dir, "Dockerfile"), "utf8");
  const evalScript = await readFile(path.join(dir, "eval.sh"), "utf8");
  // the Dockerfile copies repo/ into the image, so the repository snapshot is the context
  const contextFiles = await filesUnder(path.join(demoDir, "repos", meta.repo), "repo/");
  const [owner, name] = meta.repository.split("/");
  const repository = await db.repository.upsert({
    where: { owner_name: { owner, name } },
    create: { owner, name },
    update: {},
  });
  const fields = {
    repositoryId: repository.id,
    baseCommit: meta.baseCommit,
    source: "DEMO" as const,
    contextFiles,
    timeoutSeconds: meta.timeoutSeconds ?? null,
    memoryMb: meta.memoryMb ?? null,
    cpus: meta.cpus ?? null,
    metadata: { description: meta.description ?? null, demoFolder: folder, logParser: "pytest" },
  };
  const environment = await db.environment.upsert({
    where: { key: meta.key },
    create: { key: meta.key, ...fields },
    update: fields,
  });
  if (!environment.currentRevisionId) {
    await addEnvironmentRevision(db, {
      environmentId: environment.id,
      number: 1,
      dockerfile,
      evalScript,
      reason: "Demo recipe",
      authorId: null,
      contextHash: buildContextHash({ dockerfile, contextFiles, buildArgs: defaultBuildArgs() }),
    });
  }
  return environment;
}

/**
 * Loads (or refreshes) the demo environments and tasks. Idempotent: environments and tasks
 * are upserted by their natural keys and an environment keeps its revisions. Returns the tasks.
 */
export async function loadDemoEnvironments(db: Db, demoDir: string): Promise<DemoTask[]> {
  const environmentIds = new Map<string, string>();
  for (const folder of (await readdir(path.join(demoDir, "environments"))).sort()) {
    const environment = await loadEnvironment(db, demoDir, folder);
    environmentIds.set(environment.key, environment.id);
  }
  const tasks: DemoTask[] = [];
  for (const folder of (await readdir(path.join(demoDir, "tasks"))).sort()) {
    const dir = path.join(demoDir, "tasks", folder);
    const meta = DemoTaskSchema.parse(JSON.parse(await readFile(path.join(dir, "task.json"), "utf8")));
    const environmentId = environmentIds.get(meta.environment);
    if (!environmentId)
      throw new Error(
        `Demo task ${meta.instanceId} names environment ${meta.environment}, which is not in ${demoDir}/environments`,
      );
    const fields = {
      environmentId,
      source: "DEMO" as const,
      kind: "ISSUE_FIX" as const,
      difficulty: meta.difficulty ?? null,
      problemStatement: meta.problemStatement,
      fixPatch: await readFile(path.join(dir, "fix.patch"), "utf8"),
      testPatch: await readFile(path.join(dir, "test.patch"), "utf8"),
      failToPass: meta.failToPass,
      passToPass: meta.passToPass,
      metadata: { expected: meta.expected ?? null },
    };
    tasks.push(
      await db.task.upsert({
        where: { instanceId: meta.instanceId },
        create: { instanceId: meta.instanceId, ...fields },
        update: fields,
      }),
    );
  }
  return tasks;
}
