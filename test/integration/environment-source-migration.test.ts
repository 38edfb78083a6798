import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../helpers/database";

// The migration that gave environments a source also marked the placeholder environments imports
// had left behind: IMAGE when their dataset names an image, NONE otherwise. Its UPDATE runs here
// again on placeholder environments written as they were before it (source RECIPE, the default).

const MIGRATION = readFileSync(
  path.join(import.meta.dirname, "../../prisma/migrations/20261205210000_environment_sources/migration.sql"),
  "utf8",
);
const MARKING = MIGRATION.slice(MIGRATION.indexOf("WITH named AS"));

describe("migrating placeholder environments to a source", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => database?.drop());

  it("marks them IMAGE with the image their rows or dataset name, NONE when nothing names one, and leaves recipes alone", async () => {
    const db = database.prisma;
    const repositoryId = (await db.repository.create({ data: { owner: "o", name: "r" } })).id;
    const environment = async (key: string, metadata: object | null) =>
      (await db.environment.create({ data: { key, repositoryId, baseCommit: key, ...(metadata ? { metadata } : {}) } }))
        .id;
    const task = (
      instanceId: string,
      environmentId: string,
      source: "SWE_BENCH" | "SWE_REBENCH" | "SWE_GYM",
      metadata: object | null = null,
    ) =>
      db.task.create({
        data: {
          instanceId,
          environmentId,
          source,
          problemStatement: "",
          fixPatch: "",
          testPatch: "",
          ...(metadata ? { metadata } : {}),
        },
      });
    const placeholder = { placeholderRecipe: true };
    const bench = await environment("bench", placeholder);
    await task("Django__django-16255", bench, "SWE_BENCH");
    const rebench = await environment("rebench", placeholder);
    await task("a__b-1", rebench, "SWE_REBENCH", { docker_image: "swerebench/sweb.eval.x86_64.a_1776_b-1" });
    const gym = await environment("gym", placeholder);
    await task("getmoto__moto-5752", gym, "SWE_GYM");
    const bare = await environment("bare", placeholder);
    await task("c__d-1", bare, "SWE_REBENCH");
    const recipe = await environment("recipe", null);
    await task("e__f-1", recipe, "SWE_BENCH");

    await db.$executeRawUnsafe(MARKING);

    const sources = Object.fromEntries(
      (await db.environment.findMany({ select: { key: true, imageSource: true, imageReference: true } })).map((e) => [
        e.key,
        `${e.imageSource} ${e.imageReference ?? "-"}`,
      ]),
    );
    expect(sources).toEqual({
      bench: "IMAGE swebench/sweb.eval.x86_64.django_1776_django-16255:latest",
      rebench: "IMAGE swerebench/sweb.eval.x86_64.a_1776_b-1",
      gym: "IMAGE xingyaoww/sweb.eval.x86_64.getmoto_s_moto-5752:latest",
      bare: "NONE -",
      recipe: "RECIPE -",
    });
  });
});
