import yauzl from "yauzl";
import { formatBytes } from "./json-records";

// Reads chosen members of a zip one at a time (Inspect's .eval logs: header.json,
// samples/*.json), each into memory on its own, never the archive. A member over the size
// cap is reported, not read. Whole-archive unpacking (environment folders) is
// extract-archive.ts's job; this is for a zip that is one document.

export type ZipMember = { name: string; compressedBytes: number } & ({ text: string } | { error: string });

function openZip(filePath: string): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) =>
    yauzl.open(
      filePath,
      { lazyEntries: true, autoClose: false, decodeStrings: true, validateEntrySizes: true },
      (error, zip) => (error || !zip ? reject(error ?? new Error("unreadable zip")) : resolve(zip)),
    ),
  );
}

function listEntries(zip: yauzl.ZipFile): Promise<yauzl.Entry[]> {
  return new Promise((resolve, reject) => {
    const entries: yauzl.Entry[] = [];
    zip.on("error", reject);
    zip.on("entry", (entry: yauzl.Entry) => {
      entries.push(entry);
      zip.readEntry();
    });
    zip.on("end", () => resolve(entries));
    zip.readEntry();
  });
}

async function readEntry(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<string> {
  const stream = await new Promise<NodeJS.ReadableStream>((resolve, reject) =>
    zip.openReadStream(entry, (error, s) =>
      error || !s ? reject(error ?? new Error("unreadable member")) : resolve(s),
    ),
  );
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/** The members whose names `wanted` accepts, in the order `order` gives (default: as stored). */
export async function* readZipMembers(
  filePath: string,
  wanted: (name: string) => boolean,
  maxBytes: number,
  order?: (a: string, b: string) => number,
): AsyncGenerator<ZipMember> {
  const zip = await openZip(filePath);
  try {
    const entries = (await listEntries(zip)).filter((e) => !e.fileName.endsWith("/") && wanted(e.fileName));
    if (order) entries.sort((a, b) => order(a.fileName, b.fileName));
    for (const entry of entries) {
      const base = { name: entry.fileName, compressedBytes: entry.compressedSize };
      if (entry.uncompressedSize > maxBytes) {
        yield {
          ...base,
          error: `the member is ${formatBytes(entry.uncompressedSize)}, over the ${formatBytes(maxBytes)} limit for one record; it was skipped`,
        };
        continue;
      }
      yield { ...base, text: await readEntry(zip, entry) };
    }
  } finally {
    zip.close();
  }
}
