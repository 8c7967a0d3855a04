import type { UploadDoor } from "../uploads/uploads.routes.js";
import { shareUploadOwner } from "./share-drops.js";

/**
 * The share links' visitors' tus endpoint (`/shared/uploads`): the `share`
 * kind of access (the token, and the session after a password), each upload
 * owned by the share. The file becomes a draft in the owner's drop folder.
 */
export const shareDropDoor: UploadDoor = {
  path: "/shared/uploads",
  access: "share",
  ownerOf: (request) => {
    if (!request.shareVisit) throw new Error("a share upload route reached without the share resolved");
    return shareUploadOwner(request.shareVisit.shareId);
  },
  tag: "share visitors",
  summary: {
    create:
      "A visitor drops a file into the share's upload drop (tus): a draft in the owner's folder, the visitor as author",
    upload: "The visitor's dropped upload: HEAD its offset, PATCH bytes at Upload-Offset, DELETE it (tus)",
  },
  description: `With \`X-Share-Token\` (and \`X-Share-Session\` after a password). Upload-Metadata \`visitorName\` (required, 400 without) and \`filename\`; other keys are ignored.
Refused before any byte: 410 share_unavailable (revoked, expired, used up), 403 share_drop_off (no drop), share_drop_forbidden (the owner can no longer write into the folder), share_drop_full (its file limit reached), 413 share_drop_too_large (over its per-file limit, by Upload-Length). The last byte's answer: \`{ dropped: { name, size, mime } }\`.`,
};
