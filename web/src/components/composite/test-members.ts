import type { ManuscriptMember } from "../../api/composites";

/** A photo among a composite's members, for the composite tests; no thumbnail unless given. */
export const photoMember = (storyId: string, title: string, thumbnailUrl: string | null = null): ManuscriptMember => ({
  storyId,
  libraryId: "product",
  type: "photo",
  title,
  thumbnailUrl,
});
