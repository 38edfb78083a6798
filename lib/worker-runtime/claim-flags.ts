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
  const others = peers.filter((peer) => peer.workerId !== self.workerId && peer.healthy && !peer.draining);
  // with no engine left to take them, a run is still claimed so that it is handed back with a
  // sentence saying why it waits, rather than sitting in the queue unexplained
  if (!self.healthy) return others.length ? [JOB_FLAG.docker] : [];
  const mine = new Set(self.imageHashes);
  const elsewhere = new Set<string>();
  for (const peer of others) {
    if (!peer.hasRoom) continue;
    for (const hash of peer.imageHashes) if (!mine.has(hash)) elsewhere.add(hash);
  }
  return [...elsewhere].map(imageFlag);
}
