import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

const serverTarget = "http://localhost:8080";
const proxy = Object.fromEntries(
  ["/dams", "/uuas", "/healthz", "/metrics"].map((prefix) => [prefix, { target: serverTarget, changeOrigin: true }]),
);

export default defineConfig({
  plugins: [react()],
  server: { proxy },
  preview: { proxy },
  build: { outDir: "dist", emptyOutDir: true, chunkSizeWarningLimit: 2000 },
});
