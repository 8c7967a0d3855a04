import { useQuery } from "@tanstack/react-query";
import { Input, Select, Space } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { listUsers } from "../../../../api/identity-admin";
import type { ShareListQuery, ShareState } from "../../../../api/shares";
import { ShareLinks } from "./share-links";

const STATES: ShareState[] = ["active", "expired", "revoked", "used-up"];

type Filters = Omit<ShareListQuery, "page" | "size" | "all">;

/** The owner picker of "all shares": users found by name as the administrator types. */
function OwnerSelect({ value, onChange }: { value?: string; onChange: (owner?: string) => void }) {
  const { t } = useTranslation();
  const [words, setWords] = useState("");
  const users = useQuery({
    queryKey: ["share-owners", words],
    queryFn: () => listUsers({ page: 0, size: 20, ...(words ? { keyword: words } : {}) }),
  });
  return (
    <Select
      allowClear
      showSearch
      filterOption={false}
      onSearch={setWords}
      value={value}
      onChange={(owner?: string) => onChange(owner || undefined)}
      placeholder={t("share.all.owner")}
      loading={users.isFetching}
      options={(users.data?.content ?? []).map((user) => ({
        value: user.id,
        label: user.name ? `${user.name} (${user.username})` : user.username,
      }))}
      style={{ minWidth: 200 }}
      data-testid="share-filter-owner"
    />
  );
}

/** Share links with their filters: state and words for everyone, the owner too in administrators' "all shares". */
export function FilteredShareLinks({ all = false }: { all?: boolean }) {
  const { t } = useTranslation();
  const [filters, setFilters] = useState<Filters>({});
  const set = (change: Filters) =>
    setFilters((current) => {
      const next = { ...current, ...change };
      for (const key of Object.keys(next) as (keyof Filters)[]) if (!next[key]) delete next[key];
      return next;
    });
  return (
    <Space direction="vertical" size={12} style={{ width: "100%" }}>
      <Space wrap size={8} data-testid={all ? "share-all-filters" : "share-mine-filters"}>
        {all ? <OwnerSelect value={filters.owner} onChange={(owner) => set({ owner })} /> : null}
        <Select<ShareState>
          allowClear
          value={filters.state}
          onChange={(state) => set({ state })}
          placeholder={t("share.all.state")}
          options={STATES.map((state) => ({ value: state, label: t(`share.state.${state}`) }))}
          style={{ minWidth: 140 }}
          data-testid="share-filter-state"
        />
        <Input.Search
          allowClear
          maxLength={200}
          placeholder={t("share.all.keyword")}
          onSearch={(keyword) => set({ keyword: keyword.trim() })}
          style={{ width: 240, maxWidth: "100%" }}
          data-testid="share-filter-keyword"
        />
      </Space>
      <ShareLinks all={all} filters={filters} />
    </Space>
  );
}
