import {
  ProFormCheckbox,
  ProFormDigit,
  ProFormSelect,
  ProFormText,
  ProFormTextArea,
  ProFormTreeSelect,
} from "@ant-design/pro-components";
import type { TFunction } from "i18next";
import { folderOptions, useFolders } from "../../../../api/folders";
import type { LibrarySettings } from "../../../../api/library-settings";

export const LIBRARY_KINDS = ["default", "download", "personal", "department", "publish"] as const;
export const STORY_TYPES = ["photo", "video", "audio", "composite"] as const;

/** The code field: letters, digits, `.`, `_`, `-`; set once (it is the library's id in every path). */
function CodeField({ t, fixed }: { t: TFunction; fixed: boolean }) {
  return (
    <ProFormText
      name="id"
      label={t("libraryAdmin.code")}
      tooltip={t("libraryAdmin.code.help")}
      disabled={fixed}
      rules={[
        { required: true, message: t("libraryAdmin.code.required") },
        { pattern: /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/, message: t("libraryAdmin.code.pattern") },
      ]}
    />
  );
}

/** The default folder: a folder of the library being edited (a new library has none yet). */
function DefaultFolderField({ t, libraryId }: { t: TFunction; libraryId?: string }) {
  const folders = useFolders(libraryId);
  return (
    <ProFormTreeSelect
      name="defaultFolderId"
      label={t("libraryAdmin.defaultFolder")}
      placeholder={libraryId ? t("libraryAdmin.defaultFolder.none") : t("libraryAdmin.defaultFolder.later")}
      allowClear
      disabled={!libraryId}
      fieldProps={{
        treeData: folderOptions(folders.data ?? []),
        loading: folders.isPending && Boolean(libraryId),
        treeDefaultExpandAll: true,
      }}
    />
  );
}

/** The add/edit form of a library. */
export function LibraryFields({ t, library }: { t: TFunction; library?: LibrarySettings }) {
  return (
    <>
      <CodeField t={t} fixed={Boolean(library)} />
      <ProFormText
        name="name"
        label={t("libraryAdmin.name")}
        rules={[
          { required: true, whitespace: true, message: t("libraryAdmin.name.required") },
          { max: 100, message: t("libraryAdmin.name.max") },
        ]}
      />
      <ProFormSelect
        name="kind"
        label={t("libraryAdmin.kind")}
        initialValue="department"
        disabled={library?.builtIn}
        options={LIBRARY_KINDS.map((kind) => ({ value: kind, label: t(`libraryAdmin.kind.${kind}`) }))}
        rules={[{ required: true }]}
      />
      <ProFormTextArea
        name="description"
        label={t("libraryAdmin.description")}
        fieldProps={{ rows: 3 }}
        rules={[{ max: 500, message: t("libraryAdmin.description.max") }]}
      />
      <ProFormCheckbox.Group
        name="storyTypes"
        label={t("libraryAdmin.storyTypes")}
        tooltip={t("libraryAdmin.storyTypes.help")}
        options={STORY_TYPES.map((type) => ({ value: type, label: t(`libraryAdmin.storyType.${type}`) }))}
      />
      <DefaultFolderField t={t} libraryId={library?.id} />
      <ProFormDigit name="sort" label={t("libraryAdmin.sort")} min={0} max={100_000} fieldProps={{ precision: 0 }} />
    </>
  );
}
