import react from "@vitejs/plugin-react";
import { defineConfig } from "vitest/config";

// Pure modules run in node; tests that render components opt in with
// `// @vitest-environment jsdom` at the top of the file.
export default defineConfig({
  plugins: [react()],
  test: {
    include: ["src/**/*.test.{ts,tsx}", "vite-plugins/**/*.test.ts"],
    environment: "node",
    setupFiles: ["src/test-setup.ts"],
  },
});
