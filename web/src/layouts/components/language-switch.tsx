import { GlobalOutlined } from "@ant-design/icons";
import { Dropdown } from "antd";
import { useTranslation } from "react-i18next";
import { LANGUAGES } from "../../locales";
import { useLanguage } from "../language-context";

export function LanguageSwitch() {
  const { t } = useTranslation();
  const { language, setLanguage } = useLanguage();
  return (
    <Dropdown
      menu={{
        selectedKeys: [language],
        items: LANGUAGES.map((lang) => ({ key: lang, label: t(`layout.lang.${lang}`) })),
        onClick: ({ key }) => setLanguage(key as (typeof LANGUAGES)[number]),
      }}
    >
      <span style={{ cursor: "pointer", paddingInline: 8 }} title={t("layout.lang")} data-testid="language-switch">
        <GlobalOutlined />
      </span>
    </Dropdown>
  );
}
