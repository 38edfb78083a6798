import path from "node:path";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

// The layer order of docs/architecture.md is enforced by import/no-restricted-paths
// (eslint.layers.mjs). This proves the rule bites — a wrong-way import in each layer is
// reported with its sentence. That the project's own tree has none is the lint step of
// `npm test` (eslint . runs this rule over every file), not linted a second time here.

const ROOT = path.resolve(import.meta.dirname, "../..");
const RULE = "import/no-restricted-paths";
// one instance: loading the project's config and plugins is the slow part
const layerLint = new ESLint({ cwd: ROOT, ruleFilter: ({ ruleId }) => ruleId === RULE });

async function layerErrors(filePath: string, code: string) {
  const [result] = await layerLint.lintText(code, { filePath: path.join(ROOT, filePath) });
  return result.messages.filter((message) => message.ruleId === RULE).map((message) => message.message);
}

describe("the layer rule", { timeout: 60_000 }, () => {
  it.each([
    ["lib/db/wrong-way.ts", 'import { getTask } from "../tasks/get-task";\nexport const x = getTask;\n', /lib\/db is the ground floor/],
    ["lib/docker/wrong-way.ts", 'import { enqueueJob } from "@/lib/jobs/enqueue-job";\nexport const x = enqueueJob;\n', /lib\/docker is the ground floor/],
    ["lib/tasks/wrong-way.ts", 'import { Nav } from "@/components/nav/nav";\nexport const x = Nav;\n', /lib\/ is the domain/],
    ["lib/tasks/wrong-way-2.ts", 'import { approvalsRequired } from "../curation/settings";\nexport const x = approvalsRequired;\n', /lib\/curation builds on lib\/tasks/],
    ["lib/runs/wrong-way.ts", 'import { defineRoute } from "@/lib/http/define-route";\nexport const x = defineRoute;\n', /lib\/http is the HTTP edge/],
    ["components/environments/wrong-way.tsx", 'import { TaskDetail } from "@/components/tasks/task-detail";\nexport const x = TaskDetail;\n', /components\/tasks builds on components\/environments/],
    ["components/ui/wrong-way.tsx", 'import { useActor } from "@/components/auth/actor-context";\nexport const x = useActor;\n', /shared pieces/],
  ])("reports a wrong-way import in %s", async (filePath, code, sentence) => {
    const errors = await layerErrors(filePath, code);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(sentence);
  });

  it("lets the right way through", async () => {
    expect(await layerErrors("lib/curation/right-way.ts", 'import { getTask } from "../tasks/get-task";\nimport { prisma } from "@/lib/db/client";\nexport const x = [getTask, prisma];\n')).toEqual([]);
  });
});
