import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ImportFormat } from "../../../lib/db/enums";

// lib/imports/README.md lists every accepted format, one line each, with the ImportFormat
// its batch records, and a table of natural keys. A format added to the importer without
// its line (or a line naming a format that no longer exists) fails here.

const readme = readFileSync(path.join(import.meta.dirname, "../../../lib/imports/README.md"), "utf8");
const section = readme.slice(
  readme.indexOf("### Formats"),
  readme.indexOf("\n### ", readme.indexOf("### Formats") + 1),
);
const known: string[] = Object.values(ImportFormat).filter((format) => format !== "UNKNOWN");

describe("the README's list of formats", () => {
  const bullets = section.split("\n").filter((line) => line.startsWith("- **"));

  it("names, on every line but Parquet's, the ImportFormat its batch records", () => {
    const named = bullets.map(
      (line) =>
        line.match(/^- \*\*[^*]+\*\*, `([A-Z][A-Z0-9_]*)` \(/)?.[1] ??
        (line.startsWith("- **Parquet**") ? "parquet" : line),
    );
    expect(named.filter((format) => format !== "parquet" && !known.includes(format))).toEqual([]);
    expect(new Set(named)).toEqual(new Set([...known, "parquet"]));
  });

  it("gives every format a row in the natural-key table", () => {
    const tableRows = section.split("\n").filter((line) => line.startsWith("| `"));
    const inTable = tableRows.flatMap((row) =>
      [...row.split("|")[1].matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((m) => m[1]),
    );
    expect([...inTable].sort()).toEqual([...known].sort());
  });
});
