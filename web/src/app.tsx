import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { ConfigProvider, message } from "antd";
import { I18nextProvider } from "react-i18next";
import { BrowserRouter } from "react-router-dom";
import { SessionGate } from "./auth/session-gate";
import { FeedbackProvider } from "./components/feedback";
import { MESSAGE_CONFIG } from "./config";
import { LanguageProvider, useLanguage } from "./layouts/language-context";
import { SettingsProvider, useSettings } from "./layouts/settings-context";
import { i18n, type Language, type LanguagePack } from "./locales";
import { AppRoutes } from "./router";

message.config(MESSAGE_CONFIG);

const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false } },
});

function Themed() {
  const { antdLocale } = useLanguage();
  const { settings } = useSettings();
  return (
    <ConfigProvider locale={antdLocale} theme={{ token: { colorPrimary: settings.primaryColor } }}>
      <FeedbackProvider>
        <BrowserRouter>
          <SessionGate>
            <AppRoutes />
          </SessionGate>
        </BrowserRouter>
      </FeedbackProvider>
    </ConfigProvider>
  );
}

/** `language` and its pack are loaded before the first render (main.tsx). */
export function App({ language, pack }: { language: Language; pack: LanguagePack }) {
  return (
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        <LanguageProvider initial={{ language, pack }}>
          <SettingsProvider>
            <Themed />
          </SettingsProvider>
        </LanguageProvider>
      </QueryClientProvider>
    </I18nextProvider>
  );
}
