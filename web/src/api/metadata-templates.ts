/** Metadata templates: types, calls, query keys and hooks (the settings screen and the upload pages). */
import { useQuery } from "@tanstack/react-query";
import { api, call } from "./client";
import { restCalls } from "./resource";
import type { components } from "./schema";

export type MetadataTemplate = components["schemas"]["MetadataTemplate"];
export type TemplateValues = components["schemas"]["MetadataTemplateValues"];
export type MetadataTemplateInput = { name: string; description?: string | null; values: TemplateValues };

export const templateKeys = {
  all: ["metadata-templates"] as const,
  list: () => [...templateKeys.all, "all"] as const,
};

export const metadataTemplateCalls = restCalls(
  "/dams/api/v1/metadata-templates",
  "/dams/api/v1/metadata-templates/{templateId}",
  { remove: {} },
);
/** A template's values for the caller uploading into a library, with {date}, {user} and {library} replaced. */
export const applyMetadataTemplate = (templateId: string, libraryId: string): Promise<TemplateValues> =>
  call(
    api.GET("/dams/api/v1/metadata-templates/{templateId}/apply/{libraryId}", {
      params: { path: { templateId, libraryId } },
    }),
  );

const allTemplates = async (): Promise<MetadataTemplate[]> =>
  (await metadataTemplateCalls.list({ page: 0, size: 1000 })).content;
export const useMetadataTemplates = () => useQuery({ queryKey: templateKeys.list(), queryFn: allTemplates });
