import fs from "node:fs";
import path from "node:path";
import { type APIRequestContext, expect, type Page } from "@playwright/test";

export const API = "/dams/api/v1";

/** JPEG photos of the shared corpus. */
export const PHOTOS = path.resolve(import.meta.dirname, "../../../shared/corpus/exif-samples/jpg");

/** The signed-in session's access token, for seeding through the API. */
export async function accessToken(page: Page): Promise<string> {
  const raw = await page.evaluate(() => localStorage.getItem("pro__Access-Token"));
  return (JSON.parse(raw ?? "{}") as { value: string }).value;
}

/**
 * A personal API token ("get token") for seeding, as another system would hold:
 * the journeys' access tokens live 30 s, less than a video takes to upload and
 * process. `purpose` names the token (`e2e <purpose> <time>`).
 */
export async function seedingToken(page: Page, purpose = "seeding"): Promise<string> {
  const created = await page.request.post(`${API}/api-tokens`, {
    headers: { authorization: `Bearer ${await accessToken(page)}` },
    data: { name: `e2e ${purpose} ${Date.now()}`, expiresInDays: 1 },
  });
  expect(created.status(), await created.text()).toBe(200);
  return ((await created.json()) as { data: { secret: string } }).data.secret;
}

/** A seeding token (see seedingToken) and the headers that carry it, for a journey's own API calls. */
export async function seedingHeaders(
  page: Page,
  purpose?: string,
): Promise<{ token: string; headers: { authorization: string } }> {
  const token = await seedingToken(page, purpose);
  return { token, headers: { authorization: `Bearer ${token}` } };
}

export interface Seeded {
  libraryId: string;
  storyId: string;
  title: string;
}

/** Uploads a file with tus (a creation POST, then one PATCH with all bytes), as the upload pages do. */
export async function upload(
  request: APIRequestContext,
  token: string,
  file: string,
  metadata: Record<string, string>,
): Promise<Seeded> {
  const bytes = fs.readFileSync(file);
  const encoded = Object.entries({ filename: path.basename(file), ...metadata })
    .map(([key, value]) => `${key} ${Buffer.from(value).toString("base64")}`)
    .join(",");
  const tus = { authorization: `Bearer ${token}`, "tus-resumable": "1.0.0" };
  const created = await request.post(`${API}/uploads`, {
    headers: { ...tus, "upload-length": String(bytes.length), "upload-metadata": encoded },
  });
  expect(created.status(), await created.text()).toBe(201);
  const location = created.headers().location ?? "";
  const patched = await request.patch(location, {
    headers: { ...tus, "upload-offset": "0", "content-type": "application/offset+octet-stream" },
    data: bytes,
  });
  expect(patched.status(), await patched.text()).toBeLessThan(300);
  const body = (await patched.json()) as { data: { result: { libraryId: string; storyId: string } } };
  return { ...body.data.result, title: metadata.title ?? "" };
}

/** The fields of a story (`GET /stories/:libraryId/:storyId`) the journeys read. */
export interface StoryView {
  processingState: string;
  coverUrl: string | null;
  title: string;
}

/** A story as the API shows it now. */
export async function storyOf(request: APIRequestContext, token: string, story: Seeded): Promise<StoryView> {
  const response = await request.get(`${API}/stories/${story.libraryId}/${story.storyId}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  return ((await response.json()) as { data: StoryView }).data;
}

/** Waits for the media job of each story (thumbnails, preview, proxy) to end done. */
export async function waitForProcessing(
  request: APIRequestContext,
  token: string,
  stories: Seeded[],
  timeout = 90_000,
): Promise<void> {
  for (const story of stories) {
    await expect.poll(async () => (await storyOf(request, token, story)).processingState, { timeout }).toBe("done");
  }
}

/** Drafts (all of one library) → committed, then waits for the media job (thumbnails, preview). */
export async function commitAndProcess(
  request: APIRequestContext,
  token: string,
  stories: Seeded[],
  type = "photo",
  /** The bound on the processing of each (videos' proxies take minutes on a loaded machine). */
  timeout = 90_000,
): Promise<void> {
  const committed = await request.post(`${API}/workflow-story-create/${type}/commit`, {
    headers: { authorization: `Bearer ${token}` },
    data: { libraryId: stories[0]?.libraryId ?? "product", storyIds: stories.map((story) => story.storyId) },
  });
  expect(committed.status(), await committed.text()).toBe(200);
  await waitForProcessing(request, token, stories, timeout);
}

/**
 * A library of the journey's own (`id`, `name`) holding three committed, processed photos titled 港口, 台风 and
 * 发布会 with the run's mark, in that order.
 */
export async function libraryWithThreePhotos(
  request: APIRequestContext,
  token: string,
  library: { id: string; name: string },
  run: string,
): Promise<[Seeded, Seeded, Seeded]> {
  const made = await request.post(`${API}/library-settings`, {
    headers: { authorization: `Bearer ${token}` },
    data: library,
  });
  expect(made.status(), await made.text()).toBe(200);
  const libraryId = library.id;
  const photos: [Seeded, Seeded, Seeded] = [
    await upload(request, token, path.join(PHOTOS, "Canon_40D.jpg"), { libraryId, title: `港口 ${run}` }),
    await upload(request, token, path.join(PHOTOS, "Nikon_D70.jpg"), { libraryId, title: `台风 ${run}` }),
    await upload(request, token, path.join(PHOTOS, "Kodak_CX7530.jpg"), { libraryId, title: `发布会 ${run}` }),
  ];
  await commitAndProcess(request, token, photos);
  return photos;
}
