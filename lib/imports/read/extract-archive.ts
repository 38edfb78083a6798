import { createReadStream, createWriteStream } from "node:fs";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGunzip } from "node:zlib";
import tar from "tar-stream";
import yauzl from "yauzl";
import { AppError } from "../../errors/app-error";
import { formatBytes } from "./json-records";
import { configFrom, type EnvironmentSource } from "../../config/server-config";

// Unpacks an uploaded .zip / .tar / .tar.gz into a fresh temporary folder, entry by entry
// (never the whole archive in memory), refusing what could escape the folder or fill the
// disk, and stopping the moment a cap is passed: entries, bytes unpacked (every byte that
// comes out of the decompressor, written or not), how much it expands relative to its
// compressed size, path depth and length, and the size of one entry's headers. A zip's
// central directory is checked whole (declared sizes, count, paths) before any byte is written.

export type ArchiveKind = "zip" | "tar" | "tar.gz";
export type ArchiveLimits = {
  maxEntries: number;
  maxBytes: number;
  /** unpacked ÷ packed; past `ratioGraceBytes` unpacked, a higher ratio is a decompression bomb */
  maxRatio: number;
  ratioGraceBytes: number;
  maxPathDepth: number;
  maxPathBytes: number;
  /** a tar entry's pax / GNU long-name headers together */
  maxHeaderBytes: number;
};

export function archiveLimitsFromEnv(source?: EnvironmentSource): ArchiveLimits {
  const e = configFrom(source);
  return {
    maxEntries: e.SWE_CURATOR_ARCHIVE_MAX_ENTRIES,
    maxBytes: e.SWE_CURATOR_ARCHIVE_MAX_BYTES,
    maxRatio: e.SWE_CURATOR_ARCHIVE_MAX_RATIO,
    ratioGraceBytes: 16 * 1024 * 1024,
    maxPathDepth: 32,
    maxPathBytes: 1024,
    maxHeaderBytes: 64 * 1024,
  };
}

const refuse = (reason: string) =>
  new AppError("UNPROCESSABLE", `The archive was refused: ${reason}; nothing was imported`);

/** The entry's path inside the target folder, or null when it must be skipped. */
export function safeEntryPath(root: string, name: string): string | null {
  const normalised = name.replace(/\\/g, "/");
  if (normalised.startsWith("/") || /^[a-zA-Z]:/.test(normalised)) return null;
  const parts = normalised.split("/").filter((p) => p && p !== ".");
  if (!parts.length || parts.includes("..")) return null;
  if (parts[0] === "__MACOSX") return null;
  const target = path.join(root, ...parts);
  return target.startsWith(root + path.sep) ? target : null;
}

class Budget {
  entries = 0;
  bytes = 0;
  /** packed bytes read so far: a bomb is caught in its first megabytes, not at the end of the file */
  packed = 0;
  constructor(private readonly limits: ArchiveLimits) {}

  entry(name: string) {
    if (++this.entries > this.limits.maxEntries)
      throw refuse(`it has more than ${this.limits.maxEntries.toLocaleString("en-US")} entries`);
    if (Buffer.byteLength(name) > this.limits.maxPathBytes)
      throw refuse(`an entry's path is longer than ${this.limits.maxPathBytes} bytes (${name.slice(0, 80)}…)`);
    const depth = name.split(/[\\/]/).filter(Boolean).length;
    if (depth > this.limits.maxPathDepth)
      throw refuse(
        `the entry ${name.slice(0, 120)} is nested ${depth} folders deep (the limit is ${this.limits.maxPathDepth})`,
      );
  }

  /** Counts unpacked bytes; throws the moment a cap is passed. */
  add(n: number) {
    this.bytes += n;
    if (this.bytes > this.limits.maxBytes)
      throw refuse(`it unpacks to more than ${formatBytes(this.limits.maxBytes)} (SWE_CURATOR_ARCHIVE_MAX_BYTES)`);
    if (this.bytes > this.limits.ratioGraceBytes && this.bytes > Math.max(this.packed, 1) * this.limits.maxRatio) {
      throw refuse(
        `it expands more than ${this.limits.maxRatio}× (${formatBytes(this.bytes)} unpacked from ${formatBytes(this.packed)}; a decompression bomb?)`,
      );
    }
  }

  /** Counts bytes passing through: unpacked (throws past a cap) or packed. */
  meter(what: "unpacked" | "packed" = "unpacked") {
    return new Transform({
      transform: (chunk: Buffer, _enc, done) => {
        try {
          if (what === "packed") this.packed += chunk.length;
          else this.add(chunk.length);
          done(null, chunk);
        } catch (error) {
          done(error as Error);
        }
      },
    });
  }
}

async function writeEntry(target: string, stream: Readable, meter?: Transform) {
  await mkdir(path.dirname(target), { recursive: true });
  if (meter) await pipeline(stream, meter, createWriteStream(target));
  else await pipeline(stream, createWriteStream(target));
}

function openZip(filePath: string): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) =>
    yauzl.open(filePath, { lazyEntries: true, decodeStrings: true, validateEntrySizes: true }, (error, zip) =>
      error || !zip ? reject(error ?? new Error("unreadable zip")) : resolve(zip),
    ),
  );
}

/** Walks a zip's central directory entry by entry (no data read); `visit` may return a promise. */
async function eachZipEntry(
  filePath: string,
  limits: ArchiveLimits,
  visit: (zip: yauzl.ZipFile, entry: yauzl.Entry) => Promise<void> | void,
) {
  const zip = await openZip(filePath);
  try {
    if (zip.entryCount > limits.maxEntries)
      throw refuse(
        `its directory lists ${zip.entryCount.toLocaleString("en-US")} entries (the limit is ${limits.maxEntries.toLocaleString("en-US")})`,
      );
    await new Promise<void>((resolve, reject) => {
      zip.on("error", reject);
      zip.on("end", () => resolve());
      zip.on("entry", (entry: yauzl.Entry) => {
        Promise.resolve()
          .then(() => visit(zip, entry))
          .then(() => zip.readEntry(), reject);
      });
      zip.readEntry();
    });
  } finally {
    zip.close();
  }
}

async function extractZip(filePath: string, root: string, limits: ArchiveLimits) {
  // first the directory alone: declared sizes are exact (yauzl validates them), so a bomb is refused before any byte is written
  const declared = new Budget(limits);
  await eachZipEntry(filePath, limits, (_zip, entry) => {
    declared.entry(entry.fileName);
    declared.packed += entry.compressedSize;
    declared.add(entry.uncompressedSize);
  });
  const budget = new Budget(limits);
  budget.packed = declared.packed;
  await eachZipEntry(filePath, limits, (zip, entry) => {
    const target = safeEntryPath(root, entry.fileName);
    // a directory entry, a symlink (unix mode 0o120000) or an unsafe path: skip it
    const isLink = ((entry.externalFileAttributes >>> 16) & 0o170000) === 0o120000;
    if (!target || entry.fileName.endsWith("/") || isLink) return;
    return new Promise<void>((resolve, reject) =>
      zip.openReadStream(entry, (error, stream) =>
        error || !stream
          ? reject(error ?? new Error("unreadable zip entry"))
          : writeEntry(target, stream, budget.meter()).then(resolve, reject),
      ),
    );
  });
}

function headerBytes(header: tar.Header) {
  return (
    Buffer.byteLength(header.name) +
    Buffer.byteLength(header.linkname ?? "") +
    (header.pax ? Buffer.byteLength(JSON.stringify(header.pax)) : 0)
  );
}

async function extractTar(filePath: string, root: string, limits: ArchiveLimits, gzipped: boolean) {
  const budget = new Budget(limits);
  const extract = tar.extract();
  const done = (async () => {
    for await (const entry of extract) {
      const { header } = entry;
      if (headerBytes(header) > limits.maxHeaderBytes)
        throw refuse(
          `the headers of the entry ${header.name.slice(0, 120)} are larger than ${formatBytes(limits.maxHeaderBytes)}`,
        );
      budget.entry(header.name);
      const target = header.type === "file" ? safeEntryPath(root, header.name) : null;
      // a tar's bytes are all counted where they leave the decompressor, skipped entries included
      if (target) await writeEntry(target, entry as unknown as Readable, gzipped ? undefined : budget.meter());
      else if (!gzipped) budget.add(header.size ?? 0);
      else entry.resume();
    }
  })();
  const source = createReadStream(filePath);
  const unpack = gzipped
    ? pipeline(source, budget.meter("packed"), createGunzip(), budget.meter(), extract)
    : pipeline(source, budget.meter("packed"), extract);
  // whichever fails first stops both: the reader must not keep inflating after a refusal
  await Promise.all([unpack, done]).catch((error) => {
    source.destroy();
    extract.destroy();
    throw error;
  });
}

/** Unpacks into a new temporary folder; call cleanup() when done with it. Over a cap nothing is left behind. */
export async function extractArchive(
  filePath: string,
  kind: ArchiveKind,
  limits: ArchiveLimits = archiveLimitsFromEnv(),
) {
  const root = await mkdtemp(path.join(tmpdir(), "swe-curator-import-"));
  const cleanup = () => rm(root, { recursive: true, force: true });
  try {
    if (kind === "zip") await extractZip(filePath, root, limits);
    else await extractTar(filePath, root, limits, kind === "tar.gz");
  } catch (error) {
    await cleanup();
    if (error instanceof AppError) throw error;
    throw new AppError("UNPROCESSABLE", `The ${kind} archive could not be read: ${(error as Error).message}`);
  }
  return { root, cleanup };
}
