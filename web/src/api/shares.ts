import { useQuery } from "@tanstack/react-query";
import { api, call } from "./client";
import type { CallOptions } from "./http";
import { publicApi } from "./public-client";
import type { components } from "./schema";

type Schemas = components["schemas"];
export type ShareTarget = Schemas["ShareTarget"];
export type CreateShare = Schemas["CreateShare"];
export type UpdateShare = Schemas["UpdateShare"];
export type ShareGrant = Schemas["ShareToken"];
export type ShareItem = Schemas["ShareItem"];
export type ShareSettings = Schemas["ShareSettings"];
export type ShareVisit = Schemas["ShareVisit"];
export type VisitorShare = Schemas["ShareVisitorView"];
export type VisitorStory = Schemas["ShareVisitorStory"];

export const shareKeys = {
  all: ["shares"] as const,
  mine: (page: number, size: number) => [...shareKeys.all, "mine", page, size] as const,
  list: (query: ShareListQuery) => [...shareKeys.all, "list", query] as const,
  settings: () => [...shareKeys.all, "settings"] as const,
  visits: (shareId: string, page: number, size: number) => [...shareKeys.all, "visits", shareId, page, size] as const,
  visit: (token: string, session: string | null) => ["share-visit", token, session ?? ""] as const,
};

// ---------------------------------------------------------------- the owner's side

export const createShare = (body: CreateShare) => call(api.POST("/dams/api/v1/shares", { body }));

export const updateShare = (shareId: string, body: UpdateShare) =>
  call(api.PATCH("/dams/api/v1/shares/{shareId}", { params: { path: { shareId } }, body }));

export const revokeShare = (shareId: string) =>
  call(api.DELETE("/dams/api/v1/shares/{shareId}", { params: { path: { shareId } } }));

export const fetchMyShares = (page: number, size: number) =>
  call(api.GET("/dams/api/v1/shares", { params: { query: { page, size } } }));

export const useMyShares = (page: number, size: number, enabled = true) =>
  useQuery({ queryKey: shareKeys.mine(page, size), queryFn: () => fetchMyShares(page, size), enabled });

export type ShareState = ShareItem["state"];

/** The share list's filters: administrators' `all` and `owner`, everyone's `state` and `keyword`. */
export interface ShareListQuery {
  page: number;
  size: number;
  all?: boolean;
  owner?: string;
  state?: ShareState;
  keyword?: string;
}

export const fetchShares = ({ all, ...query }: ShareListQuery) =>
  call(api.GET("/dams/api/v1/shares", { params: { query: { ...query, ...(all ? { all: "true" as const } : {}) } } }));

export const useShares = (query: ShareListQuery) =>
  useQuery({ queryKey: shareKeys.list(query), queryFn: () => fetchShares(query), placeholderData: (last) => last });

/** A share's visitor log, newest first (its owner, or an administrator). */
export const fetchShareVisits = (shareId: string, page: number, size: number) =>
  call(api.GET("/dams/api/v1/shares/{shareId}/visits", { params: { path: { shareId }, query: { page, size } } }));

export const useShareVisits = (shareId: string | null, page: number, size: number) =>
  useQuery({
    queryKey: shareKeys.visits(shareId ?? "", page, size),
    queryFn: () => fetchShareVisits(shareId!, page, size),
    enabled: shareId !== null,
  });

export const useShareSettings = () =>
  useQuery({ queryKey: shareKeys.settings(), queryFn: () => call(api.GET("/dams/api/v1/share-settings")) });

// ---------------------------------------------------------------- the visitor's side (no user token)

function visitorHeaders(token: string, session: string | null): Record<string, string> {
  return { "x-share-token": token, ...(session ? { "x-share-session": session } : {}) };
}

/** The share as the visitor page shows it; the page explains 410, 401 and 429 itself. */
export const fetchVisitorShare = (token: string, session: string | null) =>
  call(publicApi.GET("/dams/api/v1/shared", { headers: visitorHeaders(token, session) }), { silent: true });

export const unlockShare = (token: string, password: string, options: CallOptions = { silent: true }) =>
  call(
    publicApi.POST("/dams/api/v1/shared/unlock", { headers: visitorHeaders(token, null), body: { password } }),
    options,
  );

export const useVisitorShare = (token: string, session: string | null) =>
  useQuery({
    queryKey: shareKeys.visit(token, session),
    queryFn: () => fetchVisitorShare(token, session),
    enabled: token.length > 0,
    retry: false,
    refetchOnWindowFocus: false,
    staleTime: Number.POSITIVE_INFINITY,
  });

/** The tag colour of each share state (my shares in the dialog, and /share/netdisk). */
export const SHARE_STATE_COLORS: Record<ShareItem["state"], string> = {
  active: "green",
  expired: "default",
  revoked: "red",
  "used-up": "orange",
};
