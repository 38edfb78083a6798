import { JOB_FLAG, imageFlag } from "../jobs/job-flags";

// Which jobs a worker refuses to claim right now, as graphile-worker flags. The rules keep
// a pool fair: locality only ever defers a run to an engine that can take it now, so no
// run waits on an engine that is busy, draining or down.

export type EngineView = {
  workerId: string;
  healthy: boolean;
  draining: boolean;
  /** it runs fewer jobs than its concurrency */
  hasRoom: boolean;
  imageHashes: string[];
};

export function forbiddenFlagsFor(self: EngineView, peers: EngineView[]): string[] {
  if (self.draining) return [JOB_FLAG.docker, JOB_FLAG.import];
  if (!self.healthy) return [JOB_FLAG.docker];
  const mine = new Set(self.imageHashes);
  const elsewhere = new Set<string>();
  for (const peer of peers) {
    if (peer.workerId === self.workerId || !peer.healthy || peer.draining || !peer.hasRoom) continue;
    for (const hash of peer.imageHashes) if (!mine.has(hash)) elsewhere.add(hash);
  }
  return [...elsewhere].map(imageFlag);
}
