import {
  ProFormDependency,
  ProFormDigit,
  ProFormList,
  ProFormSelect,
  ProFormSwitch,
  ProFormText,
} from "@ant-design/pro-components";
import { Alert, Card } from "antd";
import type { TFunction } from "i18next";
import { useState } from "react";
import { STEP_KINDS, TRIGGERS, useAllDownloadPresets, useChannelOptions } from "../../../../../api/actions";
import { useCatalogueNames } from "../../../../../api/catalogue";
import { useLibraries } from "../../../../../api/libraries";
import { useMetadataTemplates } from "../../../../../api/metadata-templates";
import { NameField } from "../../catalogue-shared/fields";

const STORY_TYPES = ["photo", "video", "audio", "composite"] as const;
const C = (field: string) => ["conditions", field];

/** A free list with suggestions from a catalogue list (tags, authors). */
function CatalogueTags({ name, label, kind }: { name: string; label: string; kind: "tags" | "authors" }) {
  const [search, setSearch] = useState("");
  const names = useCatalogueNames(kind, search, 50);
  return (
    <ProFormSelect
      name={C(name)}
      label={label}
      mode="tags"
      options={(names.data ?? []).map((value) => ({ value, label: value }))}
      fieldProps={{ onSearch: setSearch, tokenSeparators: [",", "，", ";"] }}
    />
  );
}

/** The fields of one step, by its kind. */
function StepFields({ t, kind, secretSet }: { t: TFunction; kind?: string; secretSet?: boolean }) {
  const channels = useChannelOptions();
  const templates = useMetadataTemplates();
  const presets = useAllDownloadPresets();
  const required = (field: string) => [{ required: true, message: t("actions.step.required", { field }) }];
  switch (kind) {
    case "publish":
      return (
        <ProFormSelect
          name="channelIds"
          label={t("actions.step.channels")}
          mode="multiple"
          rules={required(t("actions.step.channels"))}
          options={(channels.data ?? []).map((channel) => ({ value: channel.id, label: channel.name }))}
        />
      );
    case "template":
      return (
        <ProFormSelect
          name="templateId"
          label={t("actions.step.template")}
          rules={required(t("actions.step.template"))}
          options={(templates.data ?? []).map((template) => ({ value: template.id, label: template.name }))}
        />
      );
    case "rendition":
      return (
        <ProFormSelect
          name="presetId"
          label={t("actions.step.preset")}
          rules={required(t("actions.step.preset"))}
          options={(presets.data ?? []).map((preset) => ({
            value: preset.id,
            label: `${preset.name} (${t(`libraryAdmin.storyType.${preset.storyType}`)})`,
          }))}
        />
      );
    case "webhook":
      return (
        <>
          <ProFormText
            name="url"
            label={t("actions.step.url")}
            placeholder="https://"
            rules={[
              ...required(t("actions.step.url")),
              { type: "url", message: t("actions.step.urlInvalid") },
              { pattern: /^https?:\/\//i, message: t("actions.step.urlInvalid") },
            ]}
          />
          <ProFormText.Password
            name="secret"
            label={t("actions.step.secret")}
            tooltip={t("actions.step.secretHint")}
            placeholder={secretSet ? t("actions.step.secretKept") : undefined}
            rules={[{ min: 8, message: t("actions.step.secretMin") }]}
            fieldProps={{ autoComplete: "new-password" }}
          />
          <ProFormDigit
            name="timeoutMs"
            label={t("actions.step.timeout")}
            min={500}
            max={60_000}
            initialValue={10_000}
            fieldProps={{ precision: 0, step: 1000 }}
          />
        </>
      );
    default:
      return null;
  }
}

/** A rule's form: name, trigger, the conditions (all optional, all must hold) and the steps in order. */
export function RuleFields({ t }: { t: TFunction }) {
  const libraries = useLibraries();
  return (
    <>
      <NameField t={t} />
      <ProFormSwitch name="enabled" label={t("actions.enabled")} initialValue={true} />
      <ProFormSelect
        name="trigger"
        label={t("actions.trigger")}
        initialValue="committed"
        rules={[{ required: true, message: t("actions.step.required", { field: t("actions.trigger") }) }]}
        options={TRIGGERS.map((trigger) => ({ value: trigger, label: t(`actions.trigger.${trigger}`) }))}
      />
      <Alert type="info" showIcon style={{ marginBottom: 16 }} message={t("actions.conditions.hint")} />
      <ProFormSelect
        name={C("libraryIds")}
        label={t("actions.conditions.libraries")}
        mode="multiple"
        options={(libraries.data ?? []).map((library) => ({ value: library.id, label: library.name }))}
      />
      <ProFormSelect
        name={C("types")}
        label={t("actions.conditions.types")}
        mode="multiple"
        options={STORY_TYPES.map((type) => ({ value: type, label: t(`libraryAdmin.storyType.${type}`) }))}
      />
      <CatalogueTags name="tags" kind="tags" label={t("actions.conditions.tags")} />
      <ProFormText name={C("keyword")} label={t("actions.conditions.keyword")} rules={[{ max: 100 }]} />
      <CatalogueTags name="authors" kind="authors" label={t("actions.conditions.authors")} />
      <ProFormList
        name="steps"
        label={t("actions.steps")}
        min={1}
        initialValue={[{ kind: "template" }]}
        creatorButtonProps={{ creatorButtonText: t("actions.steps.add") }}
        creatorRecord={{ kind: "template" }}
        copyIconProps={false}
        rules={[
          {
            validator: async (_, value: unknown[] | undefined) => {
              if (!value || value.length === 0) throw new Error(t("actions.steps.none"));
            },
          },
        ]}
        itemRender={({ listDom, action }, { index }) => (
          <Card
            size="small"
            style={{ marginBottom: 8 }}
            title={t("actions.steps.number", { n: index + 1 })}
            extra={action}
            data-testid={`action-step-${index}`}
          >
            {listDom}
          </Card>
        )}
      >
        <ProFormSelect
          name="kind"
          label={t("actions.step.kind")}
          allowClear={false}
          options={STEP_KINDS.map((kind) => ({ value: kind, label: t(`actions.step.kind.${kind}`) }))}
        />
        <ProFormDependency name={["kind", "secretSet"]}>
          {({ kind, secretSet }) => <StepFields t={t} kind={kind} secretSet={secretSet} />}
        </ProFormDependency>
      </ProFormList>
    </>
  );
}
