import { describe, expect, it } from "vitest";
import { IMPORTABLE_FILES, importAcceptList, importableExtensionsSentence } from "../../lib/imports/importable-files";

// The upload picker offers what the importers read: a Parquet dataset and an Inspect .eval
// log were hidden by a hand-kept list; the accept list is now the importable-files table.

describe("the import picker's accept list", () => {
  it("offers Parquet datasets and Inspect .eval logs besides JSON, logs and archives", () => {
    const accepted = importAcceptList().split(",");
    for (const extension of [
      ".json",
      ".jsonl",
      ".parquet",
      ".eval",
      ".traj",
      ".log",
      ".zip",
      ".tar",
      ".tar.gz",
      ".tgz",
    ])
      expect(accepted).toContain(extension);
  });

  it("is every extension of the table, each once", () => {
    const all = IMPORTABLE_FILES.flatMap((f) => f.extensions);
    expect(importAcceptList().split(",").sort()).toEqual([...new Set(all)].sort());
  });

  it("follows the table: a format added there is offered", () => {
    expect(importAcceptList([...IMPORTABLE_FILES, { holds: "a new dataset", extensions: [".arrow"] }])).toMatch(
      /,\.arrow$/,
    );
    expect(importableExtensionsSentence([{ holds: "x", extensions: [".a", ".b", ".c"] }])).toBe(".a, .b or .c");
  });
});
