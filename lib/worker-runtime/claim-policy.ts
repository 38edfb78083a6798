import { forbiddenFlagsFor, type EngineView } from "./claim-flags";
import { engineHealth } from "../docker/engine-health";
import { poolView } from "./worker-heartbeat";
import type { WorkerContext } from "./worker-context";

const ENGINE_CHECK_EVERY_MS = 1_000;

/**
 * What this worker claims, kept current between heartbeats: graphile-worker asks for the
 * forbidden flags before each claim, so a stopped engine stops Docker claims within a
 * second, a drain within a heartbeat, and locality follows the pool's latest holdings.
 */
export function claimPolicy(ctx: WorkerContext) {
  const self: EngineView = { workerId: ctx.workerId, healthy: true, draining: false, hasRoom: true, imageHashes: [] };
  let peers: EngineView[] = [];
  const health = engineHealth();
  let healthyAtLastBeat = true;
  let engineCheckedAt = 0;
  return {
    /** Records one check of the engine (a heartbeat's); returns whether it counts as healthy, which the heartbeat row then says. */
    recordEngineCheck(reachable: boolean): boolean {
      return (self.healthy = health.record(reachable));
    },
    /** Records a heartbeat's findings, after recordEngineCheck; true when the engine has just come back. */
    update(beat: { draining?: boolean; imageHashes?: string[] }): boolean {
      const returned = self.healthy && !healthyAtLastBeat;
      healthyAtLastBeat = self.healthy;
      if (beat.draining !== undefined) self.draining = beat.draining;
      if (beat.imageHashes) self.imageHashes = beat.imageHashes;
      return returned;
    },
    async refreshPeers() {
      peers = await poolView(ctx.db);
    },
    forbiddenFlags: async (): Promise<string[]> => {
      if (Date.now() - engineCheckedAt > ENGINE_CHECK_EVERY_MS) {
        engineCheckedAt = Date.now();
        self.healthy = health.record((await ctx.docker.status()).reachable);
      }
      return forbiddenFlagsFor(self, peers);
    },
  };
}
