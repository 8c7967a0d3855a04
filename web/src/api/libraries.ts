/** Libraries and the user's default upload target: types, calls, query keys, domain hooks. */
import { useQuery } from "@tanstack/react-query";
import { useCallback } from "react";
import { useTranslation } from "react-i18next";
import { seededLibraryName } from "../locales/seeded";
import { api, call } from "./client";
import type { components } from "./schema";

export type Library = components["schemas"]["Library"];
export type DefaultLibrary = components["schemas"]["DefaultLibrary"];

export const libraryKeys = {
  all: ["libraries"] as const,
  /** The libraries the user can read, with their level on each. */
  list: () => [...libraryKeys.all, "list"] as const,
  /** Where the user's uploads go unless chosen otherwise. */
  defaultTarget: () => [...libraryKeys.all, "default"] as const,
};

export const fetchLibraries = (): Promise<Library[]> => call(api.GET("/dams/api/v1/libraries"));

export const fetchDefaultLibrary = (): Promise<DefaultLibrary> => call(api.GET("/dams/api/v1/default-library"));

/** A library's name for its id (the id itself until the libraries are loaded). */
export const libraryName = (libraries: readonly Library[] | undefined, id: string): string =>
  libraries?.find((library) => library.id === id)?.name ?? id;

/** Whether the user may write into the library (upload, edit). */
export const isWritable = (library: Pick<Library, "level"> | undefined): boolean =>
  library !== undefined && library.level !== "read";

// ---------------------------------------------------------------- hooks

/** Libraries change rarely: a minute before they are asked for again. */
const LIBRARIES_STALE_MS = 60_000;

/** The libraries the user can read, with the user's level on each. */
export function useLibraries() {
  const { t } = useTranslation();
  // The seeded libraries' names in the user's language (while an administrator has not renamed them).
  const select = useCallback(
    (libraries: Library[]) => libraries.map((library) => ({ ...library, name: seededLibraryName(library, t) })),
    [t],
  );
  return useQuery({ queryKey: libraryKeys.list(), queryFn: fetchLibraries, staleTime: LIBRARIES_STALE_MS, select });
}

/** Whether the user may write into a library (false until the libraries are loaded). */
export function useCanWrite(libraryId: string): boolean {
  const libraries = useLibraries();
  return isWritable(libraries.data?.find((library) => library.id === libraryId));
}

/** The user's default upload target (library and folder). */
export const useDefaultLibrary = () =>
  useQuery({ queryKey: libraryKeys.defaultTarget(), queryFn: fetchDefaultLibrary, staleTime: LIBRARIES_STALE_MS });
