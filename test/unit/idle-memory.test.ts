import { describe, expect, it } from "vitest";
import { idleCollectionRule } from "../../lib/http/idle-memory";

// The web server collects its heap once after a busy stretch, at the first quiet check, and
// never while it serves (a full collection would add to every request's time).
describe("collecting the web server's heap when it goes quiet", () => {
  it("collects once at the first quiet check after busy ones, not again while it stays quiet", () => {
    const shouldCollect = idleCollectionRule();
    expect([0.6, 0.9, 0.01, 0.0, 0.02].map(shouldCollect)).toEqual([false, false, true, false, false]);
  });

  it("never collects while the server is busy, however long", () => {
    const shouldCollect = idleCollectionRule();
    expect(Array.from({ length: 50 }, () => shouldCollect(0.5)).some(Boolean)).toBe(false);
  });

  it("does not collect for a server that was never busy", () => {
    const shouldCollect = idleCollectionRule();
    expect([0, 0.01, 0.03].map(shouldCollect)).toEqual([false, false, false]);
  });

  it("collects again after a second busy stretch", () => {
    const shouldCollect = idleCollectionRule();
    expect([0.8, 0, 0.7, 0.3, 0].map(shouldCollect)).toEqual([false, true, false, false, true]);
  });
});
