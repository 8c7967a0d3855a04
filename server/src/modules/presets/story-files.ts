import type { Actor } from "../auth/actor.js";
import type { StoryAccess } from "../stories/story-access.js";
import { downloadFileName, type StoryDownloads } from "../stories/story-downloads.service.js";
import type { Story } from "../stories/story-types.js";

/** What the presets need of the stories module: a story, its original's blob, file names, the download record. */
export class StoryFiles {
  constructor(
    private readonly access: StoryAccess,
    private readonly downloads: StoryDownloads,
  ) {}

  /** The story in its library (404 naming storyId otherwise). */
  story(libraryId: string, storyId: string): Promise<Story> {
    return this.access.find(libraryId, storyId, "storyId");
  }

  /** The blob of a version's original. */
  async original(
    libraryId: string,
    storyId: string,
    versionNo: number,
  ): Promise<{ blobKey: string; contentType: string }> {
    const resolved = await this.downloads.resolve({ libraryId, storyId, versionNo });
    return { blobKey: resolved.blobKey, contentType: resolved.contentType };
  }

  /** `<title>-<preset name>.<ext>`. */
  fileName(story: Story, presetName: string, contentType: string): string {
    return downloadFileName(story, presetName.replace(/\s+/g, "-"), contentType);
  }

  /** Downloads of renditions, as story actions and in the operation log (the rendition named `preset:<id>`). */
  async recordDownloads(
    actor: Actor,
    presetId: string,
    libraryId: string,
    files: { storyId: string; file: { blobKey: string; fileName: string; contentType: string } }[],
  ): Promise<void> {
    await this.downloads.record(
      actor,
      files.map(({ storyId, file }) => ({
        request: { libraryId, storyId, rendition: `preset:${presetId}` },
        resolved: { blobKey: file.blobKey, fileName: file.fileName, contentType: file.contentType },
      })),
    );
  }
}
