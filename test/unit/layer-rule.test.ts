import { readdirSync } from "node:fs";
import path from "node:path";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";
import { LIB_ORDER } from "../../eslint.layers.mjs";

// The layer order of docs/architecture.md is enforced by import/no-restricted-paths
// (eslint.layers.mjs), which resolves relative and "@/" imports alike. This proves the rule
// bites — a wrong-way import in each layer, relative or not, is reported with its sentence. That the project's own tree has none is the lint step of
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
    ["lib/db/wrong-way.ts", 'import { getTask } from "../tasks/get-task";\nexport const x = getTask;\n', /lib\/db may import only the folders below it/],
    ["lib/docker/wrong-way.ts", 'import { enqueueJob } from "@/lib/jobs/enqueue-job";\nexport const x = enqueueJob;\n', /lib\/docker may import only/],
    ["lib/tasks/wrong-way.ts", 'import { Nav } from "@/components/nav/nav";\nexport const x = Nav;\n', /lib\/ is the domain/],
    ["lib/tasks/wrong-way-2.ts", 'import { approvalsRequired } from "../curation/settings";\nexport const x = approvalsRequired;\n', /lib\/tasks may import only/],
    // the back-arrows this order removed, planted again as relative imports
    ["lib/tasks/wrong-way-3.ts", 'import { requestValidation } from "../runs/request-validation";\nexport const x = requestValidation;\n', /lib\/tasks may import only the folders below it .*passed in by the caller/],
    ["lib/environments/wrong-way.ts", 'import { ensureImage } from "../builds/ensure-image";\nexport const x = ensureImage;\n', /lib\/environments may import only/],
    ["lib/analytics/wrong-way.ts", 'import { campaignReport } from "../campaigns/report";\nexport const x = campaignReport;\n', /lib\/analytics may import only/],
    ["lib/auth/wrong-way.ts", 'import { listTasks } from "../tasks/list-tasks";\nexport const x = listTasks;\n', /lib\/auth may import only/],
    ["lib/runs/wrong-way.ts", 'import { defineRoute } from "@/lib/http/define-route";\nexport const x = defineRoute;\n', /lib\/runs may import only/],
    // a folder outside the order may not lean on lib/ at all
    ["lib/somewhere-new/wrong-way.ts", 'import { getTask } from "../tasks/get-task";\nexport const x = getTask;\n', /no place in LIB_ORDER/],
    // one door per read: no page or route touches the database client, relative import or not
    ["app/(dashboard)/somewhere/page.tsx", 'import { prisma } from "@/lib/db/client";\nexport const x = prisma;\n', /app\/ and components\/ do not touch the database/],
    ["app/api/v1/somewhere/route.ts", 'import { prisma } from "../../../../lib/db/client";\nexport const x = prisma;\n', /app\/ and components\/ do not touch the database/],
    ["lib/tasks/wrong-way-4.ts", 'import type { Task } from "../db/generated/client";\nexport type X = Task;\n', /from lib\/db\/client, not lib\/db\/generated/],
  ])("reports a wrong-way import in %s", async (filePath, code, sentence) => {
    const errors = await layerErrors(filePath, code);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(sentence);
  });

  it("lets the right way through", async () => {
    expect(await layerErrors("lib/curation/right-way.ts", 'import { getTask } from "../tasks/get-task";\nimport { prisma } from "@/lib/db/client";\nexport const x = [getTask, prisma];\n')).toEqual([]);
    expect(await layerErrors("app/(dashboard)/somewhere/page.tsx", 'import { pageContext } from "@/lib/http/page-context";\nimport { TaskKind } from "@/lib/db/enums";\nexport const x = [pageContext, TaskKind];\n')).toEqual([]);
  });

  it("places every folder under lib/ in the declared order, once", () => {
    const folders = readdirSync(path.join(ROOT, "lib"), { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name);
    expect([...LIB_ORDER].sort()).toEqual(folders.sort());
  });
});
