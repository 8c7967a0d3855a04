import { message } from "antd";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { acceptHashToken } from "./api/session";
import { App } from "./app";
import "./global.css";
import { i18n, type Language, loadLanguage } from "./locales";
import { chunkLoadMessage } from "./locales/chunk-load";
import { chunkNameFromError } from "./router/chunk-load";

// CSS and JS preloads that fail (spec section 8: "CSS chunk load likewise").
window.addEventListener("vite:preloadError", (event) => {
  event.preventDefault();
  void message.error(i18n.t("error.chunkLoad", { name: chunkNameFromError(event.payload) }));
});

// Spec section 4, step 3: a token passed in the URL hash is accepted and stored.
acceptHashToken();

const root = document.getElementById("root");
if (!root) throw new Error("#root is missing from index.html");
const language = i18n.language as Language;
// Only the language in use is fetched (issue 5); the other one when the user switches.
loadLanguage(language).then(
  (pack) =>
    createRoot(root).render(
      <StrictMode>
        <App language={language} pack={pack} />
      </StrictMode>,
    ),
  () => {
    // No pack to say it with: spec section 8's message from the few strings kept outside the packs.
    root.textContent = chunkLoadMessage(language, `locale-${language}`);
  },
);
