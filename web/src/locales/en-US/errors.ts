import { CHUNK_LOAD_MESSAGE } from "../chunk-load";

// Spec section 8, word for word.
export default {
  "error.title": "error code: {{status}}",
  "error.403": "access denied",
  "error.404": "request error, resource not found",
  "error.405": "request method not allowed",
  "error.408": "request timeout",
  "error.500": "server error",
  "error.501": "network not implemented",
  "error.502": "network error",
  "error.503": "service unavailable",
  "error.504": "network timeout",
  "error.505": "http version not supported",
  "error.other": "connection error",
  "error.noResponse": "failed to connect to server",
  "error.unauthorized": "Unauthorized",
  "error.unauthorized.description": "Authorization verification failed",
  "error.chunkLoad": CHUNK_LOAD_MESSAGE["en-US"],
  "exception.403": "Sorry, you have no access to this page",
  "exception.404": "Sorry, the page does not exist or is still in development",
  "exception.500": "Sorry, server error",
  "exception.backHome": "Back to home",
};
