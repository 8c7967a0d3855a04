import { randomUUID } from "node:crypto";
import {
  API,
  type Cell,
  EVERYONE,
  matrixClip,
  matrixEdl,
  NOT_FOUND_FOR_ALL,
  VIDEO_MAKERS,
} from "./access-matrix.support.js";

/** Cells of the stories, the video editor and sharing. */
export const storyCells: Cell[] = [
  {
    group: "video edit",
    name: "GET /video-edit/projects",
    expect: VIDEO_MAKERS,
    request: () => ({ method: "GET", url: `${API}/video-edit/projects` }),
  },
  {
    group: "video edit",
    name: "POST /video-edit/projects",
    expect: VIDEO_MAKERS,
    request: () => ({ method: "POST", url: `${API}/video-edit/projects`, payload: { edl: matrixEdl([]) } }),
  },
  {
    group: "video edit",
    name: "POST /video-edit/renders of a material video",
    expect: VIDEO_MAKERS,
    request: (_who, f) => ({
      method: "POST",
      url: `${API}/video-edit/renders`,
      payload: { edl: matrixEdl([matrixClip("material", f.videos.material)]) },
    }),
  },
  {
    group: "stories",
    name: "GET /stories/material/{id} (its ETag)",
    expect: EVERYONE,
    request: (_who, f) => ({ method: "GET", url: `${API}/stories/material/${f.videos.material}` }),
  },
  {
    group: "stories",
    name: "PUT /workflow-story-edit/video/{id} (edit information)",
    // story.list edit and the write level on material: every seeded role but viewers (read only).
    expect: { admin: 200, administrator: 200, editor: 200, contributor: 200, viewer: 403 },
    request: (_who, f) => ({
      method: "PUT",
      url: `${API}/workflow-story-edit/video/${f.videos.material}?libraryId=material`,
      payload: { caption: "matrix caption" },
    }),
  },
  {
    group: "stories",
    name: "PUT /workflow-story-edit/video/{id} in another's library",
    expect: { admin: 200, administrator: 200, editor: 200, contributor: 404, viewer: 403 },
    request: (_who, f) => ({
      method: "PUT",
      url: `${API}/workflow-story-edit/video/${f.videos.outsider}?libraryId=personal-outsider`,
      payload: { caption: "matrix caption" },
    }),
  },
  {
    group: "stories",
    name: "POST /story-batch-edits/preview (batch edit information)",
    expect: { admin: 200, administrator: 200, editor: 200, contributor: 200, viewer: 403 },
    request: (_who, f) => ({
      method: "POST",
      url: `${API}/story-batch-edits/preview`,
      payload: {
        storyIds: [f.videos.material, f.videos.outsider],
        operations: [{ op: "add", field: "tags", values: ["m"] }],
      },
    }),
  },
  {
    group: "stories",
    name: "POST /story-batch-edits (a story in another's library is refused in the report)",
    expect: { admin: 200, administrator: 200, editor: 200, contributor: 200, viewer: 403 },
    request: (_who, f) => ({
      method: "POST",
      url: `${API}/story-batch-edits`,
      payload: {
        storyIds: [f.videos.outsider],
        operations: [{ op: "set", field: "caption", value: "matrix caption" }],
      },
    }),
  },
  {
    group: "stories",
    name: "GET /story-batch-edits/{unknown}",
    expect: { ...NOT_FOUND_FOR_ALL, viewer: 403 },
    request: () => ({ method: "GET", url: `${API}/story-batch-edits/${randomUUID()}` }),
  },
  {
    group: "stories",
    name: "GET /story-batch-edits/{unknown}/items",
    expect: { ...NOT_FOUND_FOR_ALL, viewer: 403 },
    request: () => ({ method: "GET", url: `${API}/story-batch-edits/${randomUUID()}/items` }),
  },
  {
    group: "video edit",
    name: "POST /video-edit/renders of a video in another's library",
    expect: { admin: 200, administrator: 200, editor: 200, contributor: 404, viewer: 403 },
    request: (_who, f) => ({
      method: "POST",
      url: `${API}/video-edit/renders`,
      payload: { edl: matrixEdl([matrixClip("personal-outsider", f.videos.outsider)]) },
    }),
  },
  {
    group: "video edit",
    name: "GET /video-edit/renders/{someone else's}",
    expect: { admin: 404, administrator: 404, editor: 404, contributor: 404, viewer: 403 },
    request: (_who, f) => ({ method: "GET", url: `${API}/video-edit/renders/${f.outsiderRender}` }),
  },
  {
    group: "video edit",
    name: "GET /video-edit/stories/material/{id}/edl",
    expect: EVERYONE,
    request: (_who, f) => ({ method: "GET", url: `${API}/video-edit/stories/material/${f.videos.material}/edl` }),
  },
  {
    group: "video edit",
    name: "GET /video-edit/stories/material/{id}/project",
    expect: VIDEO_MAKERS,
    request: (_who, f) => ({ method: "GET", url: `${API}/video-edit/stories/material/${f.videos.material}/project` }),
  },
  {
    group: "video edit",
    name: "GET /video-edit/stories/{another's library}/{id}/edl",
    expect: { admin: 200, administrator: 200, editor: 200, contributor: 404, viewer: 200 },
    request: (_who, f) => ({
      method: "GET",
      url: `${API}/video-edit/stories/personal-outsider/${f.videos.outsider}/edl`,
    }),
  },
  {
    group: "shares",
    name: "POST /shares of a material story",
    expect: { admin: 200, administrator: 200, editor: 200, contributor: 403, viewer: 403 },
    request: (_who, f) => ({
      method: "POST",
      url: `${API}/shares`,
      payload: { target: { kind: "story", libraryId: "material", storyId: f.videos.material } },
    }),
  },
  {
    group: "shares",
    name: "POST /shares of a story in another's library",
    expect: { admin: 200, administrator: 200, editor: 200, contributor: 403, viewer: 403 },
    request: (_who, f) => ({
      method: "POST",
      url: `${API}/shares`,
      payload: { target: { kind: "story", libraryId: "personal-outsider", storyId: f.videos.outsider } },
    }),
  },
  {
    group: "shares",
    name: "GET /workflow-story-share/story/material/{id}",
    expect: { admin: 200, administrator: 200, editor: 200, contributor: 403, viewer: 403 },
    request: (_who, f) => ({ method: "GET", url: `${API}/workflow-story-share/story/material/${f.videos.material}` }),
  },
  {
    group: "shares",
    name: "GET /shares (mine)",
    expect: EVERYONE,
    request: () => ({ method: "GET", url: `${API}/shares` }),
  },
  {
    group: "shares",
    name: "GET /shares?all=true",
    expect: { admin: 200, administrator: 403, editor: 403, contributor: 403, viewer: 403 },
    request: () => ({ method: "GET", url: `${API}/shares?all=true` }),
  },
  {
    group: "shares",
    name: "PATCH /shares/{someone else's}",
    expect: { admin: 200, administrator: 404, editor: 404, contributor: 404, viewer: 404 },
    request: (_who, f) => ({ method: "PATCH", url: `${API}/shares/${f.outsiderShare}`, payload: { message: "x" } }),
  },
  {
    group: "shares",
    name: "GET /shares/{someone else's}/visits",
    expect: { admin: 200, administrator: 404, editor: 404, contributor: 404, viewer: 404 },
    request: (_who, f) => ({ method: "GET", url: `${API}/shares/${f.outsiderShare}/visits` }),
  },
  {
    group: "shares",
    name: "GET /share-settings",
    expect: EVERYONE,
    request: () => ({ method: "GET", url: `${API}/share-settings` }),
  },
  {
    group: "shares",
    name: "PUT /share-settings",
    expect: { admin: 200, administrator: 403, editor: 403, contributor: 403, viewer: 403 },
    request: () => ({ method: "PUT", url: `${API}/share-settings`, payload: { maxDays: 90, allowNever: false } }),
  },
  {
    group: "share visitors",
    name: "GET /shared with a user's token and no share token",
    expect: { admin: 410, administrator: 410, editor: 410, contributor: 410, viewer: 410 },
    request: () => ({ method: "GET", url: `${API}/shared` }),
  },
  {
    group: "share visitors",
    name: "POST /shared/uploads (a visitor's drop) with a user's token and no share token",
    expect: { admin: 410, administrator: 410, editor: 410, contributor: 410, viewer: 410 },
    request: () => ({
      method: "POST",
      url: `${API}/shared/uploads`,
      headers: { "tus-resumable": "1.0.0", "upload-length": "10" },
    }),
  },
  {
    group: "share visitors",
    name: "PATCH /shared/uploads/{id} with a user's token and no share token",
    expect: { admin: 410, administrator: 410, editor: 410, contributor: 410, viewer: 410 },
    request: () => ({
      method: "PATCH",
      url: `${API}/shared/uploads/${randomUUID()}`,
      headers: { "tus-resumable": "1.0.0", "upload-offset": "0", "content-type": "application/offset+octet-stream" },
      payload: "0123456789",
    }),
  },
  // h16: the share list's filters (issue 16, the administrators' "all shares" tab).
  {
    group: "shares",
    name: "GET /shares?state=&keyword= (mine, filtered)",
    expect: EVERYONE,
    request: () => ({ method: "GET", url: `${API}/shares?state=active&keyword=matrix` }),
  },
  {
    group: "shares",
    name: "GET /shares?owner={own id}",
    expect: EVERYONE,
    request: (who, f) => ({ method: "GET", url: `${API}/shares?owner=${f.principals[who].id}` }),
  },
  {
    group: "shares",
    name: "GET /shares?owner={someone else}",
    expect: { admin: 200, administrator: 403, editor: 403, contributor: 403, viewer: 403 },
    request: (_who, f) => ({ method: "GET", url: `${API}/shares?owner=${f.outsider.id}` }),
  },
  {
    group: "shares",
    name: "GET /shares?all=true&state=revoked&keyword=",
    expect: { admin: 200, administrator: 403, editor: 403, contributor: 403, viewer: 403 },
    request: () => ({ method: "GET", url: `${API}/shares?all=true&state=revoked&keyword=x` }),
  },
  // Composite texts (issue 15): the text is read like the story; committing a composite needs story.list add.
  {
    group: "stories",
    name: "GET /stories/material/{id}/text",
    expect: EVERYONE,
    request: (_who, f) => ({ method: "GET", url: `${API}/stories/material/${f.videos.material}/text` }),
  },
  {
    group: "stories",
    name: "GET /stories/{another's library}/{id}/text",
    expect: { admin: 200, administrator: 200, editor: 200, contributor: 404, viewer: 200 },
    request: (_who, f) => ({ method: "GET", url: `${API}/stories/personal-outsider/${f.videos.outsider}/text` }),
  },
  {
    group: "stories",
    name: "POST /workflow-story-create/composite/commit of an unknown draft",
    // Past the hook (story.list add) the draft is not found; viewers are refused by the hook.
    expect: { ...NOT_FOUND_FOR_ALL, viewer: 403 },
    request: () => ({
      method: "POST",
      url: `${API}/workflow-story-create/composite/commit`,
      payload: { libraryId: "material", storyIds: [randomUUID()] },
    }),
  },
];
