import { Input } from "antd";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router-dom";
import { EmptyPage } from "../../../components/empty-page";

/** Full-text search; the query lives in the `fulltext` parameter (spec section 2). */
export default function SearchPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const fulltext = params.get("fulltext") ?? "";
  const [value, setValue] = useState(fulltext);
  useEffect(() => setValue(fulltext), [fulltext]);
  return (
    <>
      <Input.Search
        aria-label={t("search.placeholder")}
        placeholder={t("search.placeholder")}
        value={value}
        onChange={(event) => setValue(event.target.value)}
        onSearch={(text) => setParams(text.trim() ? { fulltext: text.trim() } : {})}
        enterButton
        allowClear
        size="large"
        style={{ maxWidth: 640 }}
      />
      <EmptyPage messageKey={fulltext ? "search.emptyFor" : "search.empty"} params={{ fulltext }} />
    </>
  );
}
