import { readFileSync } from "node:fs";
import path from "node:path";
import * as prettier from "prettier";
import { describe, expect, it } from "vitest";

// `npm run lint` (and `npm test`'s static checks) run `prettier --check .`: this shows the check
// bites on code written by hand into the tree, and that the project's own settings are the ones used.

const ROOT = path.resolve(import.meta.dirname, "../..");
const PLANTED = path.join(ROOT, "lib/tasks/planted-by-test.ts");
const UNFORMATTED = `export function   planted( a:number,b :number ){return a+b}\n`;

const isIgnored = async (file: string) =>
  (await prettier.getFileInfo(file, { ignorePath: path.join(ROOT, ".prettierignore") })).ignored;

async function checkAsTheLintDoes(file: string, source: string) {
  const options = await prettier.resolveConfig(file);
  const formatted = await prettier.check(source, { ...options, filepath: file });
  return { ignored: await isIgnored(file), printWidth: options?.printWidth, formatted };
}

describe("formatting", () => {
  it("refuses unformatted code in lib, and takes it once prettier has written it", async () => {
    const planted = await checkAsTheLintDoes(PLANTED, UNFORMATTED);
    expect(planted).toEqual({ ignored: false, printWidth: 120, formatted: false });
    const written = await prettier.format(UNFORMATTED, {
      ...(await prettier.resolveConfig(PLANTED)),
      filepath: PLANTED,
    });
    expect((await checkAsTheLintDoes(PLANTED, written)).formatted).toBe(true);
  });

  it("checks pages, components, workers and tests too; leaves only generated code and public samples alone", async () => {
    for (const file of ["app/page.tsx", "components/planted.tsx", "workers/main.ts", "test/unit/planted.test.ts"]) {
      expect(await isIgnored(path.join(ROOT, file)), file).toBe(false);
    }
    for (const file of ["lib/db/generated/client.ts", "test/fixtures/sample.json"]) {
      expect(await isIgnored(path.join(ROOT, file)), file).toBe(true);
    }
  });

  it("is part of npm run lint", () => {
    const scripts = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")).scripts as Record<string, string>;
    expect(scripts.lint).toMatch(/prettier --check \./);
  });
});
