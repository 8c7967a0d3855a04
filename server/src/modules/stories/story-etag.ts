import { Invalid } from "../../http/errors.js";
import type { Story } from "./story-types.js";

/** A story's ETag: its metadata revision, quoted (docs/stories.md, "Editing a story"). */
export function storyEtag(story: Pick<Story, "revision">): string {
  return `"${story.revision}"`;
}

const ETAG = /^(?:W\/)?"(\d{1,15})"$/;

/**
 * The revision an edit's If-Match names, or undefined without one (or `*`):
 * an edit without If-Match applies over whatever is there, as before.
 */
export function revisionOf(ifMatch: string | string[] | undefined): number | undefined {
  const value = (Array.isArray(ifMatch) ? ifMatch[0] : ifMatch)?.trim();
  if (value === undefined || value === "" || value === "*") return undefined;
  const match = ETAG.exec(value);
  if (!match)
    throw new Invalid(`If-Match: must be the story's ETag (as its GET answers, e.g. "3")`, "invalid_if_match");
  return Number(match[1]);
}
