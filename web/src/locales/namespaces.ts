/**
 * The namespaces of the app's strings, one module each in every language's folder, in the order they are merged (a
 * later one's key would win). Both languages' index files hand theirs to `mergeNamespaces`, whose type asks for
 * every one: a namespace added here and missing from a language does not compile.
 */
export const NAMESPACES = [
  "app",
  "menu",
  "pages",
  "layout",
  "errors",
  "settings",
  "crud",
  "editInfo",
  "batchEdit",
  "composite",
  "user",
  "admin",
  "catalogue",
  "libraryAdmin",
  "storage",
  "stories",
  "urlIngest",
  "serverMessages",
  "upload",
  "cover",
  "embed",
  "disk",
  "viewerMedia",
  "imageEditor",
  "videoEditor",
  "shares",
  "presets",
  "templates",
  "actions",
] as const;
export type Namespace = (typeof NAMESPACES)[number];

type Merged<T> = (T extends unknown ? (value: T) => void : never) extends (value: infer All) => void ? All : never;

/**
 * One language's strings: its namespaces' modules merged in NAMESPACES' order, typed as all their keys (the journeys
 * name strings by `keyof`, checked when compiled).
 */
export function mergeNamespaces<Modules extends Record<Namespace, Record<string, string>>>(
  modules: Modules,
): Merged<Modules[Namespace]> {
  return Object.assign({}, ...NAMESPACES.map((name) => modules[name]));
}
