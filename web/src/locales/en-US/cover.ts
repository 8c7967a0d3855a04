export default {
  // The cover cropper (spec section 2, "Cover cropper screen"; issue 7).
  "cover.action": "Cover",
  "cover.title": "Set the cover",
  "cover.ratioCaption": "cover image ratio: {{ratio}}",
  "cover.confirm": "Confirm",
  "cover.saved": "The cover is set",
  "cover.sourceAlt": "The image to crop",
  "cover.source.current": "Current cover",
  "cover.source.frame": "Video frame",
  "cover.source.file": "Image file",
  "cover.takeFrame": "Use this frame",
  "cover.otherFrame": "Choose another frame",
  "cover.pickFile": "Choose an image",
  "cover.notImage": "please select an image file.",
};
