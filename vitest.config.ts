import { defineConfig } from "vitest/config";
import path from "node:path";

const alias = {
  "@": path.resolve(import.meta.dirname),
  "server-only": path.resolve(import.meta.dirname, "test/helpers/server-only-stub.ts"),
};

export default defineConfig({
  resolve: { alias },
  test: {
    projects: [
      { resolve: { alias }, test: { name: "unit", include: ["test/unit/**/*.test.ts"], environment: "node" } },
      {
        resolve: { alias },
        test: {
          name: "integration",
          include: ["test/integration/**/*.test.ts", "test/security/**/*.test.ts"],
          exclude: ["test/security/**/*.e2e.test.ts"],
          globalSetup: ["test/helpers/global-setup.ts"],
          // a hang detector, not a speed bound: with both cores busy a file's first case (a worker or CLI
          // compiling its module graph, a cold database) took over 120 s, and a timeout that trips on
          // a slow but correct case makes the suite lie
          testTimeout: 300_000,
          hookTimeout: 300_000,
          pool: "forks",
          // two files at once whatever the core count (vitest's default is cores - 1, one file at a time on a
          // 2-core CI): these files mostly wait on containers, builds and PostgreSQL, and each has its own
          // database, worker and container labels, so they do not see each other. `--maxWorkers=1` runs them one by one.
          maxWorkers: 2,
        },
      },
      {
        resolve: { alias },
        test: {
          name: "e2e",
          include: ["test/e2e/**/*.test.ts", "test/security/**/*.e2e.test.ts"],
          globalSetup: ["test/helpers/e2e-server.ts"],
          testTimeout: 180_000,
          hookTimeout: 600_000,
          pool: "forks",
          fileParallelism: false,
        },
      },
    ],
  },
});
