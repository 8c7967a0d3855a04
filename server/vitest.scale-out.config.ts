import { defineConfig } from "vitest/config";

/**
 * The multi-node test (src/test/scale-out/): PostgreSQL, Ceph RGW, two API
 * nodes and two workers behind HAProxy, started by scripts/scale-out.mjs from
 * the built server. `npm test` runs it as a step of its own; alone:
 * `npm run build -w server && npx vitest run --root server --config vitest.scale-out.config.ts`.
 */
export default defineConfig({
  test: {
    include: ["src/test/scale-out/**/*.test.ts"],
    testTimeout: 300_000,
    hookTimeout: 300_000,
    pool: "forks",
    fileParallelism: false,
  },
});
