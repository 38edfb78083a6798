import { performance } from "node:perf_hooks";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

// A burst of requests grows V8's heap, and the web server keeps that size long after the burst:
// measured under bench:load, 20 s of quiet gave nothing back, while the full collections a heap
// snapshot runs returned the whole growth (the garbage was never live). So once a busy stretch is followed by a quiet
// one, the server collects once; never while it serves, where a full collection would add to
// every request's time.

type Utilization = ReturnType<typeof performance.eventLoopUtilization>;

/** Above this share of a check's interval spent running JavaScript, the server counts as busy. */
const BUSY_SHARE = 0.05;

/** A full collection, through V8's own gc() (exposed on demand: NODE_OPTIONS cannot carry --expose-gc on every Node release we support). */
function fullCollection(): () => void {
  setFlagsFromString("--expose-gc");
  return runInNewContext("gc") as () => void;
}

/**
 * One collection frees what is garbage now; objects kept for their finalizers (weak callbacks,
 * FinalizationRegistry) become garbage only once those have run, after it. So: a few rounds,
 * each after the finalizers the last one queued.
 */
function collectFully(gc: () => void, rounds = 3) {
  gc();
  if (rounds > 1) setTimeout(() => collectFully(gc, rounds - 1), 200).unref();
}

/** Decides, check by check, whether to collect now: after busy checks, at the first quiet one. */
export function idleCollectionRule() {
  let busySinceLastCollection = false;
  return (utilization: number): boolean => {
    if (utilization > BUSY_SHARE) {
      busySinceLastCollection = true;
      return false;
    }
    const collect = busySinceLastCollection;
    busySinceLastCollection = false;
    return collect;
  };
}

/** Starts the watch in this process; the timer never keeps the process alive. */
export function returnMemoryWhenIdle(checkEveryMs = 5_000) {
  const gc = fullCollection();
  const shouldCollect = idleCollectionRule();
  let last: Utilization = performance.eventLoopUtilization();
  setInterval(() => {
    const now = performance.eventLoopUtilization();
    if (shouldCollect(performance.eventLoopUtilization(now, last).utilization)) collectFully(gc);
    last = now;
  }, checkEveryMs).unref();
}
