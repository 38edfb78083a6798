import { readdirSync } from "node:fs";
import path from "node:path";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";
import { LIB_ORDER } from "../../eslint.layers.mjs";

// The layer order of docs/architecture.md is enforced by import/no-restricted-paths
// (eslint.layers.mjs), which resolves relative and "@/" imports alike. This proves the rule
// bites — a wrong-way import in each layer, relative or not, is reported with its sentence.
// That the project's own tree has none is the lint step of `npm test` (eslint . runs this
// rule over every file), not linted a second time here.

const ROOT = path.resolve(import.meta.dirname, "../..");
const RULE = "import/no-restricted-paths";
// one instance: loading the project's config and plugins is the slow part
const layerLint = new ESLint({ cwd: ROOT, ruleFilter: ({ ruleId }) => ruleId === RULE });

async function layerErrors(filePath: string, code: string) {
  const [result] = await layerLint.lintText(code, { filePath: path.join(ROOT, filePath) });
  return result.messages.filter((message) => message.ruleId === RULE).map((message) => message.message);
}

/** A file that imports `name` from `from` and uses it. */
const importing = (name: string, from: string) => `import { ${name} } from "${from}";\nexport const x = ${name};\n`;

describe("the layer rule", { timeout: 60_000 }, () => {
  it.each([
    ["lib/db/wrong-way.ts", importing("getTask", "../tasks/get-task"), /lib\/db may import only the folders below it/],
    ["lib/docker/wrong-way.ts", importing("enqueueJob", "@/lib/jobs/enqueue-job"), /lib\/docker may import only/],
    ["lib/tasks/wrong-way.ts", importing("Nav", "@/components/nav/nav"), /lib\/ is the domain/],
    ["lib/tasks/wrong-way-2.ts", importing("approvalsRequired", "../curation/settings"), /lib\/tasks may import only/],
    // the back-arrows this order removed, planted again as relative imports
    [
      "lib/tasks/wrong-way-3.ts",
      importing("requestValidation", "../runs/request-validation"),
      /lib\/tasks .*passed in by the caller/,
    ],
    [
      "lib/environments/wrong-way.ts",
      importing("ensureImage", "../builds/ensure-image"),
      /lib\/environments may import only/,
    ],
    [
      "lib/analytics/wrong-way.ts",
      importing("campaignReport", "../campaigns/report"),
      /lib\/analytics may import only/,
    ],
    ["lib/auth/wrong-way.ts", importing("listTasks", "../tasks/list-tasks"), /lib\/auth may import only/],
    ["lib/runs/wrong-way.ts", importing("defineRoute", "@/lib/http/define-route"), /lib\/runs may import only/],
    // inside lib/imports the walk is detect -> read -> map -> write, and nothing walked imports its walker
    [
      "lib/imports/read/wrong-way.ts",
      importing("writeTrajectory", "../write/write-trajectory"),
      /lib\/imports\/read is the ground/,
    ],
    [
      "lib/imports/read/wrong-way-2.ts",
      importing("importFile", "@/lib/imports/import-file"),
      /lib\/imports\/read is the ground/,
    ],
    [
      "lib/imports/records/wrong-way.ts",
      importing("detectFile", "../formats/detect-format"),
      /lib\/imports\/records is the ground/,
    ],
    [
      "lib/imports/write/wrong-way.ts",
      importing("reportEntries", "../formats/swe-bench-report/map"),
      /lib\/imports\/write stores/,
    ],
    [
      "lib/imports/formats/swe-flow-steps/map.ts",
      importing("writeTaskRecords", "../../write/write-task-records"),
      /may not import lib\/imports\/write/,
    ],
    [
      "lib/imports/formats/detect-format.ts",
      importing("findTasks", "@/lib/imports/write/find-tasks"),
      /may not import lib\/imports\/write/,
    ],
    [
      "lib/imports/formats/inspect-log/wrong-way.ts",
      importing("importFile", "../../import-file"),
      /may not import the pipeline/,
    ],
    [
      "lib/imports/formats/wrong-way.ts",
      importing("importArchive", "@/lib/imports/documents/import-archive"),
      /may not import the pipeline/,
    ],
    // a folder outside the order may not lean on lib/ at all
    ["lib/somewhere-new/wrong-way.ts", importing("getTask", "../tasks/get-task"), /no place in LIB_ORDER/],
    // one door per read: no page or route touches the database client, relative import or not
    [
      "app/(dashboard)/somewhere/page.tsx",
      importing("prisma", "@/lib/db/client"),
      /app\/ and components\/ do not touch the database/,
    ],
    ["app/api/v1/somewhere/route.ts", importing("prisma", "../../../../lib/db/client"), /do not touch the database/],
    [
      "lib/tasks/wrong-way-4.ts",
      importing("Prisma", "../db/generated/client"),
      /from lib\/db\/client, not lib\/db\/generated/,
    ],
  ])("reports a wrong-way import in %s", async (filePath, code, sentence) => {
    const errors = await layerErrors(filePath, code);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(sentence);
  });

  it("lets the right way through", async () => {
    expect(await layerErrors("lib/curation/right-way.ts", importing("getTask", "../tasks/get-task"))).toEqual([]);
    expect(await layerErrors("lib/curation/right-way-2.ts", importing("prisma", "@/lib/db/client"))).toEqual([]);
    expect(
      await layerErrors("app/(dashboard)/somewhere/page.tsx", importing("pageContext", "@/lib/http/page-context")),
    ).toEqual([]);
    expect(await layerErrors("components/tasks/right-way.tsx", importing("TaskKind", "@/lib/db/enums"))).toEqual([]);
    expect(await layerErrors("lib/imports/formats/right-way.ts", importing("shapeOf", "../read/json-shape"))).toEqual(
      [],
    );
    expect(
      await layerErrors(
        "lib/imports/formats/swe-flow-steps/import.ts",
        importing("writeTaskRecords", "../../write/write-task-records"),
      ),
    ).toEqual([]);
    expect(
      await layerErrors("lib/imports/write/right-way.ts", importing("HarnessResult", "../records/harness-result")),
    ).toEqual([]);
  });

  it("places every folder under lib/ in the declared order, once", () => {
    const entries = readdirSync(path.join(ROOT, "lib"), { withFileTypes: true });
    const folders = entries.filter((entry) => entry.isDirectory()).map((entry) => entry.name);
    expect([...LIB_ORDER].sort()).toEqual(folders.sort());
  });
});
