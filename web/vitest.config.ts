import react from "@vitejs/plugin-react";
import { defineConfig } from "vitest/config";
import { sharedModules } from "./vite.config";

// Pure modules run in node; tests that render components opt in with
// `// @vitest-environment jsdom` at the top of the file.
export default defineConfig({
  plugins: [react()],
  resolve: { alias: [sharedModules] },
  test: {
    include: ["src/**/*.test.{ts,tsx}", "vite-plugins/**/*.test.ts"],
    environment: "node",
    setupFiles: ["src/test-setup.ts"],
    // Bounds, not waits: CI shares two cores with the server suite and the journeys (load averages of 20
    // and more were seen), where rendering a grid of 100 000 rows in jsdom took 10 s; a test still ends as
    // soon as its conditions hold. The 5 s default failed 14 tests at load ~25 that pass unloaded.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
