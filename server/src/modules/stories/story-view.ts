import { createHash } from "node:crypto";
import { API_PREFIX } from "../../http/error-handler.js";
import type { Gps, Story, StoryFile, StoryVersion } from "./story-types.js";

export interface StoryFileView {
  versionNo: number;
  role: string;
  mime: string;
  size: number;
  width: number | null;
  height: number | null;
  url: string;
  /** A short-lived signed URL of the same file for <img>/<video>/<audio> (no bearer token). */
  mediaUrl: string;
}

/** Signs a media URL (MediaUrlSigner.url); HMAC-SHA256, cheap enough for every file of a list page. */
export type SignMediaUrl = (claims: {
  libraryId: string;
  storyId: string;
  versionNo: number;
  rendition: string;
}) => string;

/** A story as the API shows it: blob keys stay inside the server, files are URLs. */
export type StoryView = Omit<Story, "coverKey"> & {
  storyId: string;
  coverUrl: string | null;
  thumbnailUrl: string | null;
  /** Signed, short-lived versions of coverUrl and thumbnailUrl (see StoryFileView.mediaUrl). */
  coverMediaUrl: string | null;
  thumbnailMediaUrl: string | null;
  files: StoryFileView[];
  members: string[];
};

/** Characters a form-encoded value (URLSearchParams) keeps as they are. */
const FORM_SAFE = /^[A-Za-z0-9*._-]*$/;

/** `name=value` as URLSearchParams writes it; without building one when the value needs no escaping (every role). */
function formPair(name: string, value: string): string {
  return FORM_SAFE.test(value) ? `${name}=${value}` : new URLSearchParams({ [name]: value }).toString();
}

export function fileUrl(story: Pick<Story, "libraryId" | "id">, role: string, versionNo?: number): string {
  const query =
    versionNo === undefined ? formPair("rendition", role) : `${formPair("rendition", role)}&versionNo=${versionNo}`;
  return `${API_PREFIX}/stories/download/${encodeURIComponent(story.libraryId)}/${story.id}?${query}`;
}

/**
 * The cover's URL. The cover is replaced in place (same rendition name), so the
 * URL carries a token of the blob it serves: a new cover is a new URL, which
 * makes browsers and the web app's object-URL cache fetch it instead of
 * showing the old image. The token is a digest, so blob keys stay inside.
 */
export function coverUrl(story: Pick<Story, "libraryId" | "id">, coverKey: string): string {
  return `${fileUrl(story, "cover")}&v=${coverToken(coverKey)}`;
}

/** A digest of the cover's blob key: blob keys stay inside the server. */
function coverToken(coverKey: string): string {
  return createHash("sha256").update(coverKey).digest("hex").slice(0, 12);
}

export function toFileView(story: Pick<Story, "libraryId" | "id">, file: StoryFile, sign: SignMediaUrl): StoryFileView {
  return {
    versionNo: file.versionNo,
    role: file.role,
    mime: file.mime,
    size: file.size,
    width: file.width,
    height: file.height,
    url: fileUrl(story, file.role, file.versionNo),
    mediaUrl: sign({ libraryId: story.libraryId, storyId: story.id, versionNo: file.versionNo, rendition: file.role }),
  };
}

/**
 * Every field is written out: `{ coverKey, ...rest }` and a spread of the rest into the view cost
 * ≈ 15 µs a story on Node 20 (two slow copies of a 35-property object), a sixth of a 50-story search
 * page's CPU (issue 21); one literal is ≈ 0.3 µs. The type makes a field added to Story a compile
 * error here until it is written. The fields are in the order of the response's schema (storySchema):
 * the compiled serialiser then writes the view as it is instead of copying it (http/response-serializer.ts).
 */
export function toStoryView(story: Story, files: StoryFile[], sign: SignMediaUrl, members: string[] = []): StoryView {
  const coverKey = story.coverKey;
  const current = files.filter((file) => file.storyId === story.id && file.versionNo === story.versionNo);
  const hasThumbnail = current.some((file) => file.role === "thumbnail");
  const signed = (rendition: string) =>
    sign({ libraryId: story.libraryId, storyId: story.id, versionNo: story.versionNo, rendition });
  return {
    id: story.id,
    storyId: story.id,
    libraryId: story.libraryId,
    folderId: story.folderId,
    type: story.type,
    halfProduct: story.halfProduct,
    status: story.status,
    title: story.title,
    caption: story.caption,
    authors: story.authors,
    source: story.source,
    keywords: story.keywords,
    tags: story.tags,
    theme: story.theme,
    category: story.category,
    properties: story.properties,
    oid: story.oid,
    versionNo: story.versionNo,
    contentSha256: story.contentSha256,
    perceptualHash: story.perceptualHash,
    width: story.width,
    height: story.height,
    duration: story.duration,
    size: story.size,
    mime: story.mime,
    originalName: story.originalName,
    capturedAt: story.capturedAt,
    gps: story.gps === null ? null : gpsView(story.gps),
    processingState: story.processingState,
    processingError: story.processingError,
    createdBy: story.createdBy,
    createdAt: story.createdAt,
    updatedBy: story.updatedBy,
    updatedAt: story.updatedAt,
    revision: story.revision,
    coverUrl: coverKey ? coverUrl(story, coverKey) : null,
    thumbnailUrl: hasThumbnail ? fileUrl(story, "thumbnail") : null,
    // The cover is replaced in place: its token makes a new cover a new URL here too.
    coverMediaUrl: coverKey ? `${signed("cover")}?v=${coverToken(coverKey)}` : null,
    thumbnailMediaUrl: hasThumbnail ? signed("thumbnail") : null,
    files: current.map((file) => toFileView(story, file, sign)),
    members,
  };
}

/**
 * The position in the schema's order (PostgreSQL's jsonb keeps an object's keys in its own order, altitude
 * first), so the serialiser writes the view as it is (toStoryView).
 */
function gpsView(gps: Gps): Gps {
  return gps.altitude === undefined
    ? { latitude: gps.latitude, longitude: gps.longitude }
    : { latitude: gps.latitude, longitude: gps.longitude, altitude: gps.altitude };
}

export interface VersionView extends Omit<StoryVersion, "blobKey"> {
  current: boolean;
  files: StoryFileView[];
}

export function toVersionView(
  story: Story,
  version: StoryVersion,
  files: StoryFile[],
  sign: SignMediaUrl,
): VersionView {
  const { blobKey: _blobKey, ...rest } = version;
  return {
    ...rest,
    current: version.versionNo === story.versionNo,
    files: files.filter((file) => file.versionNo === version.versionNo).map((file) => toFileView(story, file, sign)),
  };
}
