import { type ComponentType, type LazyExoticComponent, lazy } from "react";
import { i18n } from "../locales";
import { withChunkTimeout } from "./chunk-load";

type PageModule = { default: ComponentType };

/** Every page under src/pages, keyed by its component name ("upload/image"). */
const loaders = Object.fromEntries(
  Object.entries(import.meta.glob<PageModule>("../pages/**/index.tsx")).map(([file, load]) => [
    file.replace(/^\.\.\/pages\//, "").replace(/\/index\.tsx$/, ""),
    load,
  ]),
);

export function hasPage(component: string): boolean {
  return component in loaders;
}

const cache = new Map<string, LazyExoticComponent<ComponentType>>();

/** The lazily loaded page for a component name, or undefined when no such page exists. */
export function lazyPage(component: string): LazyExoticComponent<ComponentType> | undefined {
  const load = loaders[component];
  if (!load) return undefined;
  let page = cache.get(component);
  if (!page) {
    page = lazy(() => withChunkTimeout(load, component, (name) => i18n.t("error.chunkLoad", { name })));
    cache.set(component, page);
  }
  return page;
}
