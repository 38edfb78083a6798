import { forbiddenFlagsFor, type EngineView } from "./claim-flags";
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
  let healthyAtLastBeat = true;
  let engineCheckedAt = 0;
  return {
    /** Records a heartbeat's findings; true when the engine has just come back. */
    update(beat: { engineHealthy: boolean; draining?: boolean; imageHashes?: string[] }): boolean {
      const returned = beat.engineHealthy && !healthyAtLastBeat;
      healthyAtLastBeat = self.healthy = beat.engineHealthy;
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
        self.healthy = (await ctx.docker.status()).reachable;
      }
      return forbiddenFlagsFor(self, peers);
    },
  };
}
