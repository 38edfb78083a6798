import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Db } from "../../lib/db/client";
import { loadDemoEnvironments } from "../../lib/environments/load-demo-environments";
import { DEMO_DIR } from "./demo-environments";

/** The demo's sound-recipe tasks and the verdict each must get; one of them twice, as another instance. */
const TEMPLATES = [
  { from: "demo__calc-1", expected: "VALID" },
  { from: "demo__calc-2", expected: "POSITIVE_CONTROL_FAILED" },
  { from: "demo__calc-3", expected: "NEGATIVE_CONTROL_PASSED" },
  { from: "demo__calc-1", expected: "VALID" },
] as const;

export const POOL_TEST_LABEL = "io.swe-curator.test-pool";

/**
 * Loads `environments × 4` tasks, each environment a copy of the demo calculator's recipe
 * with a label naming this test run, so every environment is an image no engine holds yet.
 * Returns each task's instance id with the verdict it must get.
 */
export async function loadPoolTasks(db: Db, nonce: string, environments: number): Promise<Map<string, string>> {
  const dir = mkdtempSync("/tmp/swc-pool-seed-");
  cpSync(path.join(DEMO_DIR, "repos"), path.join(dir, "repos"), { recursive: true });
  const recipe = path.join(DEMO_DIR, "environments/calc");
  const expected = new Map<string, string>();
  for (let e = 0; e < environments; e++) {
    const envDir = path.join(dir, "environments", `pool-${e}`);
    mkdirSync(envDir, { recursive: true });
    const key = `pool-${nonce}/calc@${e}`;
    writeFileSync(
      path.join(envDir, "Dockerfile"),
      `${readFileSync(path.join(recipe, "Dockerfile"), "utf8")}\nLABEL ${POOL_TEST_LABEL}="${nonce}" ${POOL_TEST_LABEL}.env="${e}"\n`,
    );
    cpSync(path.join(recipe, "eval.sh"), path.join(envDir, "eval.sh"));
    writeFileSync(
      path.join(envDir, "environment.json"),
      JSON.stringify({ ...JSON.parse(readFileSync(path.join(recipe, "environment.json"), "utf8")), key }),
    );
    TEMPLATES.forEach((template, t) => {
      const instanceId = `pool-${nonce}__calc-${e}-${t}`;
      const taskDir = path.join(dir, "tasks", instanceId);
      cpSync(path.join(DEMO_DIR, "tasks", template.from), taskDir, { recursive: true });
      const task = JSON.parse(readFileSync(path.join(taskDir, "task.json"), "utf8"));
      writeFileSync(path.join(taskDir, "task.json"), JSON.stringify({ ...task, instanceId, environment: key }));
      expected.set(instanceId, template.expected);
    });
  }
  await loadDemoEnvironments(db, dir);
  return expected;
}
