import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts"],
    // The multi-node test runs on its own (vitest.scale-out.config.ts): it starts a whole topology.
    exclude: ["src/test/scale-out/**", "**/node_modules/**"],
    globalSetup: ["src/test/global-setup.ts"],
    // Generous bounds: CI shares two cores with other work (load averages of 13–17 were seen), and a test
    // waits for its condition, not for a time; these only stop a test that hangs.
    testTimeout: 120_000,
    hookTimeout: 180_000,
    pool: "forks",
    // Two forks even on two cores (vitest's default there is one): the suite waits on PostgreSQL, fsync,
    // media tools and polls far more than it computes — one fork kept the load at 1.2–2.1. Test files use
    // their own databases, data dirs and ports, so they may run side by side.
    maxWorkers: 2,
  },
});
