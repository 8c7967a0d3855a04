import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { App as AntApp, ConfigProvider, message } from "antd";
// The ES modules: antd/locale/* are CommonJS re-exports that drag antd/lib copies into the bundle.
import enUS from "antd/es/locale/en_US";
import zhCN from "antd/es/locale/zh_CN";
import { I18nextProvider } from "react-i18next";
import { BrowserRouter } from "react-router-dom";
import { SessionGate } from "./auth/session-gate";
import { MESSAGE_CONFIG } from "./config";
import { LanguageProvider, useLanguage } from "./layouts/language-context";
import { SettingsProvider, useSettings } from "./layouts/settings-context";
import { i18n } from "./locales";
import { AppRoutes } from "./router";

message.config(MESSAGE_CONFIG);

const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false } },
});

function Themed() {
  const { language } = useLanguage();
  const { settings } = useSettings();
  return (
    <ConfigProvider
      locale={language === "zh-CN" ? zhCN : enUS}
      theme={{ token: { colorPrimary: settings.primaryColor } }}
    >
      <AntApp message={MESSAGE_CONFIG}>
        <BrowserRouter>
          <SessionGate>
            <AppRoutes />
          </SessionGate>
        </BrowserRouter>
      </AntApp>
    </ConfigProvider>
  );
}

export function App() {
  return (
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        <LanguageProvider>
          <SettingsProvider>
            <Themed />
          </SettingsProvider>
        </LanguageProvider>
      </QueryClientProvider>
    </I18nextProvider>
  );
}
