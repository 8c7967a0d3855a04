import react from "@vitejs/plugin-react";
import { defineConfig, type Plugin } from "vite";

const serverTarget = "http://localhost:8080";
const proxy = Object.fromEntries(
  ["/dams", "/uuas", "/healthz", "/metrics"].map((prefix) => [prefix, { target: serverTarget, changeOrigin: true }]),
);

/**
 * ProComponents imports the strings of every language it knows (33 in
 * pro-provider, 5 in pro-layout) into one map; the app speaks zh-CN and en-US,
 * and ProComponents falls back to zh-CN for a language it lacks. The others
 * load as empty modules, which keeps about 12 KB (gzipped) out of every page.
 */
export function onlyAppLanguages(): Plugin {
  const otherLanguage =
    /[\\/]@ant-design[\\/](?:pro-provider[\\/]es[\\/]locale[\\/](?!zh_CN\.|en_US\.|index\.)[\w-]+|pro-layout[\\/]es[\\/]locales[\\/](?!zh-CN\.|en-US\.|index\.)[\w-]+)\.js$/;
  return {
    name: "dams-only-app-languages",
    enforce: "pre",
    load: (id) => (otherLanguage.test(id) ? "export default {};" : null),
  };
}

export default defineConfig({
  plugins: [react(), onlyAppLanguages()],
  resolve: {
    alias: [
      // `@ant-design/icons/ArrowLeftOutlined` (as ProLayout imports it) is a CommonJS file that pulls
      // the CommonJS copy of the icon library next to the ES one; point it at the ES module.
      { find: /^@ant-design\/icons\/(\w+)$/, replacement: "@ant-design/icons/es/icons/$1" },
    ],
  },
  server: { proxy },
  preview: { proxy },
  build: { outDir: "dist", emptyOutDir: true, chunkSizeWarningLimit: 2000 },
});
