import { fileURLToPath } from "node:url";
import react from "@vitejs/plugin-react";
import { type Alias, defineConfig, type Plugin } from "vite";
import { precompress } from "./vite-plugins/precompress";

const serverTarget = "http://localhost:8080";
const proxy = Object.fromEntries(
  ["/dams", "/uuas", "/healthz", "/metrics"].map((prefix) => [prefix, { target: serverTarget, changeOrigin: true }]),
);

/**
 * `@shared/<topic>`: the plain modules the server owns and the web app uses
 * too (server/src/shared/, docs/architecture.md). The tsconfig's `paths` say
 * the same to the type checker.
 */
export const sharedModules: Alias = {
  find: /^@shared\/(.*)$/,
  replacement: `${fileURLToPath(new URL("../server/src/shared/", import.meta.url))}$1`,
};

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

/**
 * antd's form context (which Input, Select and the other fields read for their
 * status, form or not) imports `FormProvider` from rc-field-form's index, and
 * the index's module-level statements keep the whole form engine and its
 * validator in every page that has an input: ≈ 13 KB gzipped of the search
 * page's first load (issue 5). Importing the same module by its own path keeps
 * one `FormProvider` (the index re-exports it) and leaves the engine to the
 * pages with forms.
 */
export function formContextWithoutFormEngine(): Plugin {
  const formContext = /[\\/]antd[\\/]es[\\/]form[\\/]context\.js$/;
  return {
    name: "dams-form-context-without-form-engine",
    enforce: "pre",
    transform(code, id) {
      if (!formContext.test(id)) return null;
      const direct = code.replace("from 'rc-field-form';", "from 'rc-field-form/es/FormContext';");
      if (direct === code)
        this.warn("antd's form context no longer imports rc-field-form's index: the rewrite is stale");
      return direct;
    },
  };
}

/**
 * rc-resize-observer bundles resize-observer-polyfill (≈ 4 KB gzipped), which
 * hands out the browser's own ResizeObserver wherever there is one: in every
 * browser Vite's build targets. The native one, without the polyfill.
 */
export function nativeResizeObserver(): Plugin {
  const polyfill = /[\\/]resize-observer-polyfill[\\/]dist[\\/]ResizeObserver\.es\.js$/;
  return {
    name: "dams-native-resize-observer",
    enforce: "pre",
    load: (id) => (polyfill.test(id) ? "export default globalThis.ResizeObserver;" : null),
  };
}

/**
 * antd's button styles take one small function, `isBright`, from the colour
 * picker's presets module; that module also holds the presets component, which
 * the lazily loaded colour picker uses, so the bundler keeps the whole module,
 * with Collapse, in the entry (≈ 5 KB gzipped). The button styles get their own
 * copy of the module (a query makes it a separate module), in which the unused
 * component and Collapse are shaken out.
 */
export function buttonStylesWithoutCollapse(): Plugin {
  const buttonToken = /[\\/]antd[\\/]es[\\/]button[\\/]style[\\/]token\.js$/;
  const presets = "'../../color-picker/components/ColorPresets'";
  return {
    name: "dams-button-styles-without-collapse",
    enforce: "pre",
    transform(code, id) {
      if (!buttonToken.test(id)) return null;
      if (!code.includes(presets))
        this.warn("antd's button styles no longer import the colour presets: the rewrite is stale");
      return code.replace(presets, "'../../color-picker/components/ColorPresets.js?button-styles'");
    },
  };
}

export default defineConfig({
  plugins: [
    react(),
    onlyAppLanguages(),
    formContextWithoutFormEngine(),
    nativeResizeObserver(),
    buttonStylesWithoutCollapse(),
    precompress(),
  ],
  resolve: {
    alias: [
      sharedModules,
      // `@ant-design/icons/ArrowLeftOutlined` (as ProLayout imports it) is a CommonJS file that pulls
      // the CommonJS copy of the icon library next to the ES one; point it at the ES module.
      { find: /^@ant-design\/icons\/(\w+)$/, replacement: "@ant-design/icons/es/icons/$1" },
    ],
  },
  server: { proxy },
  preview: { proxy },
  build: { outDir: "dist", emptyOutDir: true, chunkSizeWarningLimit: 2000 },
});
