/** Metadata templates: types, calls, query keys and hooks (the settings screen and the upload pages). */
import { useQuery } from "@tanstack/react-query";
import { api, call } from "./client";
import type { CallOptions } from "./http";
import { type ListQuery, type Page, resourceCalls } from "./paging";
import type { components } from "./schema";

export type MetadataTemplate = components["schemas"]["MetadataTemplate"];
export type TemplateValues = components["schemas"]["MetadataTemplateValues"];
export type MetadataTemplateInput = { name: string; description?: string | null; values: TemplateValues };

export const templateKeys = {
  all: ["metadata-templates"] as const,
  list: () => [...templateKeys.all, "all"] as const,
};

const CONFLICT: CallOptions = { silentStatuses: [409] };
const byId = (templateId: string) => ({ params: { path: { templateId } } });

export const listMetadataTemplates = (query: ListQuery): Promise<Page<MetadataTemplate>> =>
  call(api.GET("/dams/api/v1/metadata-templates", { params: { query } }));
export const createMetadataTemplate = (body: MetadataTemplateInput): Promise<MetadataTemplate> =>
  call(api.POST("/dams/api/v1/metadata-templates", { body }), CONFLICT);
export const updateMetadataTemplate = (templateId: string, body: MetadataTemplateInput): Promise<MetadataTemplate> =>
  call(api.PUT("/dams/api/v1/metadata-templates/{templateId}", { ...byId(templateId), body }), CONFLICT);
export const deleteMetadataTemplate = (templateId: string): Promise<null> =>
  call(api.DELETE("/dams/api/v1/metadata-templates/{templateId}", byId(templateId)));
export const metadataTemplateCalls = resourceCalls(
  listMetadataTemplates,
  createMetadataTemplate,
  updateMetadataTemplate,
  deleteMetadataTemplate,
);
/** A template's values for the caller uploading into a library, with {date}, {user} and {library} replaced. */
export const applyMetadataTemplate = (templateId: string, libraryId: string): Promise<TemplateValues> =>
  call(
    api.GET("/dams/api/v1/metadata-templates/{templateId}/apply/{libraryId}", {
      params: { path: { templateId, libraryId } },
    }),
  );

const allTemplates = async (): Promise<MetadataTemplate[]> =>
  (await listMetadataTemplates({ page: 0, size: 1000 })).content;
export const useMetadataTemplates = () => useQuery({ queryKey: templateKeys.list(), queryFn: allTemplates });
