export default {
  // The embeddable pages /source/ismpsource and /source/ismpupload (issue 7, docs/embedding.md).
  "embed.configFailed": "The embedding settings could not be loaded.",
  "embed.refused": "This page can only be embedded by an allowed system",
  "embed.refused.missing": "The embedding system did not name its origin (?origin=…).",
  "embed.refused.invalid": "{{origin}} is not an origin (scheme, host and port only).",
  "embed.refused.not-allowed": "{{origin}} is not among the systems allowed to embed this page.",
  "embed.signIn.title": "Sign in to choose material",
  "embed.signIn.hint": "Sign in in the window that opens; this page continues once you are signed in.",
  "embed.signIn.action": "Sign in",
  "embed.signIn.reload": "Reload",
  "embed.library": "Library",
  "embed.confirm": "Confirm",
  "embed.sent": "{{count}} stories sent",
  "embed.noOpener": "No embedding system to send to.",
};
