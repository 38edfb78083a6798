import { afterEach, describe, expect, it, vi } from "vitest";
import { dockerForTests, dockerRequired } from "../helpers/docker";
import { SKIP_REASONS_VARIABLE } from "../helpers/skips";

describe("Docker tests are required in CI", () => {
  it("treats any truthy REQUIRE_DOCKER as required", () => {
    for (const value of ["1", "true", "TRUE", "yes", "on", "2"])
      expect(dockerRequired({ REQUIRE_DOCKER: value }), value).toBe(true);
  });

  it("treats CI=true as required when REQUIRE_DOCKER is not set", () => {
    expect(dockerRequired({ CI: "true" })).toBe(true);
    expect(dockerRequired({ CI: "1" })).toBe(true);
    expect(dockerRequired({ CI: "false" })).toBe(false);
  });

  it("skips on a developer machine, and when REQUIRE_DOCKER explicitly says no", () => {
    expect(dockerRequired({})).toBe(false);
    expect(dockerRequired({ REQUIRE_DOCKER: "0", CI: "true" })).toBe(false);
    expect(dockerRequired({ REQUIRE_DOCKER: "" })).toBe(false);
  });

  describe("with no Docker engine at DOCKER_HOST", () => {
    afterEach(() => vi.unstubAllEnvs());

    it("fails instead of skipping when CI=true", async () => {
      vi.stubEnv("DOCKER_HOST", "unix:///nonexistent/docker.sock");
      vi.stubEnv("REQUIRE_DOCKER", undefined);
      vi.stubEnv("CI", "true");
      await expect(dockerForTests()).rejects.toThrow(/Docker is required here.*not usable/);
    });

    it("skips with the reason on a developer machine", async () => {
      vi.stubEnv("DOCKER_HOST", "unix:///nonexistent/docker.sock");
      vi.stubEnv("REQUIRE_DOCKER", undefined);
      vi.stubEnv("CI", undefined);
      vi.stubEnv(SKIP_REASONS_VARIABLE, undefined);
      vi.spyOn(console, "warn").mockImplementation(() => {});
      await expect(dockerForTests()).resolves.toMatchObject({
        ready: false,
        reason: expect.stringContaining("/nonexistent/docker.sock"),
      });
    });
  });
});
