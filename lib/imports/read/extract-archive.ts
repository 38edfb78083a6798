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

// Unpacks an uploaded .zip / .tar / .tar.gz into a fresh temporary folder, entry by entry
// (never the whole archive in memory), refusing what could escape the folder or fill the
// disk: absolute paths, "..", links, too many entries, too many bytes.

export type ArchiveKind = "zip" | "tar" | "tar.gz";
export type ArchiveLimits = { maxEntries: number; maxBytes: number };
export const DEFAULT_ARCHIVE_LIMITS: ArchiveLimits = { maxEntries: 100_000, maxBytes: 4 * 1024 * 1024 * 1024 };

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
  constructor(private readonly limits: ArchiveLimits) {}
  entry() {
    if (++this.entries > this.limits.maxEntries) throw new AppError("UNPROCESSABLE", `The archive has more than ${this.limits.maxEntries} entries`);
  }
  meter() {
    return new Transform({
      transform: (chunk: Buffer, _enc, done) => {
        this.bytes += chunk.length;
        if (this.bytes > this.limits.maxBytes) done(new AppError("UNPROCESSABLE", `The archive unpacks to more than ${Math.round(this.limits.maxBytes / 1024 / 1024)} MB`));
        else done(null, chunk);
      },
    });
  }
}

async function writeEntry(target: string, stream: Readable, budget: Budget) {
  await mkdir(path.dirname(target), { recursive: true });
  await pipeline(stream, budget.meter(), createWriteStream(target));
}

function openZip(filePath: string): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) =>
    yauzl.open(filePath, { lazyEntries: true, decodeStrings: true, validateEntrySizes: true }, (error, zip) => (error || !zip ? reject(error ?? new Error("unreadable zip")) : resolve(zip))),
  );
}

async function extractZip(filePath: string, root: string, budget: Budget) {
  const zip = await openZip(filePath);
  try {
    await new Promise<void>((resolve, reject) => {
      zip.on("error", reject);
      zip.on("end", () => resolve());
      zip.on("entry", (entry: yauzl.Entry) => {
        const next = () => zip.readEntry();
        try {
          budget.entry();
        } catch (error) {
          return reject(error);
        }
        const target = safeEntryPath(root, entry.fileName);
        // a directory entry, a symlink (unix mode 0o120000) or an unsafe path: skip it
        const isLink = ((entry.externalFileAttributes >>> 16) & 0o170000) === 0o120000;
        if (!target || entry.fileName.endsWith("/") || isLink) return next();
        zip.openReadStream(entry, (error, stream) => {
          if (error || !stream) return reject(error ?? new Error("unreadable zip entry"));
          writeEntry(target, stream, budget).then(next, reject);
        });
      });
      zip.readEntry();
    });
  } finally {
    zip.close();
  }
}

async function extractTar(filePath: string, root: string, budget: Budget, gzipped: boolean) {
  const extract = tar.extract();
  const done = (async () => {
    for await (const entry of extract) {
      budget.entry();
      const target = entry.header.type === "file" ? safeEntryPath(root, entry.header.name) : null;
      if (target) await writeEntry(target, entry as unknown as Readable, budget);
      else entry.resume();
    }
  })();
  const source = createReadStream(filePath);
  await Promise.all([gzipped ? pipeline(source, createGunzip(), extract) : pipeline(source, extract), done]);
}

/** Unpacks into a new temporary folder; call cleanup() when done with it. */
export async function extractArchive(filePath: string, kind: ArchiveKind, limits: ArchiveLimits = DEFAULT_ARCHIVE_LIMITS) {
  const root = await mkdtemp(path.join(tmpdir(), "swe-curator-import-"));
  const cleanup = () => rm(root, { recursive: true, force: true });
  const budget = new Budget(limits);
  try {
    if (kind === "zip") await extractZip(filePath, root, budget);
    else await extractTar(filePath, root, budget, kind === "tar.gz");
  } catch (error) {
    await cleanup();
    if (error instanceof AppError) throw error;
    throw new AppError("UNPROCESSABLE", `The ${kind} archive could not be read: ${(error as Error).message}`);
  }
  return { root, cleanup };
}
