// The one CSV writer behind every CSV export (campaigns, analytics tables). RFC 4180 quoting,
// CRLF line ends, and OWASP's rule against formula injection: text that a spreadsheet would
// read as a formula (it starts with =, +, -, @, a tab or a carriage return) is prefixed with a
// single quote, so an imported instance id or an annotator's note opens as the text it is.

export type CsvValue = string | number | bigint | boolean | null | undefined | object;

const FORMULA_START = /^[=+\-@\t\r]/;

/** One cell: numbers and booleans as written, objects as JSON, text defused and quoted when needed. */
export function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) return "";
  const isText = typeof value === "string" || typeof value === "object";
  const text = typeof value === "object" ? JSON.stringify(value) : String(value);
  const safe = isText && FORMULA_START.test(text) ? `'${text}` : text;
  return /[",\n\r]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** A header line and one line per row, each cell through csvCell. */
export function toCsv(header: readonly CsvValue[], rows: Iterable<readonly CsvValue[]>): string {
  const lines = [header.map(csvCell).join(",")];
  for (const row of rows) lines.push(row.map(csvCell).join(","));
  return lines.join("\r\n") + "\r\n";
}
