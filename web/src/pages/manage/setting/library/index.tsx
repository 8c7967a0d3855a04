import type { ProColumns } from "@ant-design/pro-components";
import { Button, Popconfirm, Tag } from "antd";
import { useTranslation } from "react-i18next";
import { libraryKeys } from "../../../../api/libraries";
import {
  archiveLibrary,
  createLibrary,
  deleteLibrary,
  type LibrarySettings,
  type LibrarySettingsInput,
  listLibrarySettings,
  restoreLibrary,
  updateLibrary,
} from "../../../../api/library-settings";
import { Access } from "../../../../auth/access-component";
import { CrudTable, showRefusal } from "../../../../components/crud-table";
import { crudAccess, useRefreshing } from "../../../../components/crud-table/resource-table";
import { useFeedback } from "../../../../components/feedback";
import { LibraryFields } from "./library-fields";

const PERMISSION = "manage.setting.library";

interface LibraryForm extends Record<string, unknown> {
  id: string;
  name: string;
  kind: LibrarySettings["kind"];
  description?: string;
  storyTypes?: NonNullable<LibrarySettings["storyTypes"]>;
  defaultFolderId?: string;
  sort?: number;
}

/** The form's values as the API takes them; every type ticked or none means "every type". */
const toInput = (values: LibraryForm, library?: LibrarySettings): LibrarySettingsInput => ({
  name: values.name.trim(),
  kind: values.kind,
  description: values.description?.trim() || null,
  sort: values.sort ?? 0,
  storyTypes:
    values.storyTypes && values.storyTypes.length > 0 && values.storyTypes.length < 4 ? values.storyTypes : null,
  defaultFolderId: values.defaultFolderId || null,
  templateId: library?.templateId ?? null,
  bucketId: library?.bucketId ?? null,
});

/** /manage/setting/library: create, edit, archive and delete libraries. */
export default function ManageSettingLibraryPage() {
  const { t } = useTranslation();
  const { message } = useFeedback();
  // Every change shows in the libraries the rest of the app lists.
  const refreshing = useRefreshing(libraryKeys.all);

  const columns: ProColumns<LibrarySettings>[] = [
    { title: t("libraryAdmin.name"), dataIndex: "name" },
    { title: t("libraryAdmin.code"), dataIndex: "id", responsive: ["sm"] },
    {
      title: t("libraryAdmin.kind"),
      dataIndex: "kind",
      responsive: ["md"],
      render: (_, library) => t(`libraryAdmin.kind.${library.kind}`),
    },
    {
      title: t("libraryAdmin.storyTypes"),
      dataIndex: "storyTypes",
      responsive: ["lg"],
      render: (_, library) =>
        library.storyTypes
          ? library.storyTypes.map((type) => t(`libraryAdmin.storyType.${type}`)).join("、")
          : t("libraryAdmin.storyTypes.all"),
    },
    {
      title: t("libraryAdmin.defaultFolder"),
      dataIndex: "defaultFolderName",
      responsive: ["lg"],
      render: (_, library) => library.defaultFolderName ?? "—",
    },
    { title: t("libraryAdmin.storyCount"), dataIndex: "storyCount", width: 90, responsive: ["sm"] },
    {
      title: t("libraryAdmin.status"),
      dataIndex: "archivedAt",
      width: 90,
      render: (_, library) =>
        library.archivedAt ? (
          <Tag>{t("libraryAdmin.status.archived")}</Tag>
        ) : (
          <Tag color="green">{t("libraryAdmin.status.active")}</Tag>
        ),
    },
  ];
  return (
    <CrudTable<LibrarySettings, LibraryForm>
      rowKey="id"
      headerTitle={t("libraryAdmin.title")}
      columns={columns}
      list={listLibrarySettings}
      access={crudAccess(PERMISSION)}
      create={refreshing((values: LibraryForm) => createLibrary({ id: values.id.trim(), ...toInput(values) }))}
      update={refreshing((library: LibrarySettings, values: LibraryForm) =>
        updateLibrary(library.id, toInput(values, library)),
      )}
      remove={refreshing((library: LibrarySettings) => deleteLibrary(library.id))}
      toFormValues={(library) => ({
        id: library.id,
        name: library.name,
        kind: library.kind,
        description: library.description ?? undefined,
        storyTypes: library.storyTypes ?? undefined,
        defaultFolderId: library.defaultFolderId ?? undefined,
        sort: library.sort,
      })}
      formFields={(library) => <LibraryFields t={t} library={library} />}
      rowActions={(library, reload) =>
        library.builtIn
          ? []
          : [
              <Access key="archive" action={`${PERMISSION}.edit`}>
                <Popconfirm
                  title={library.archivedAt ? t("libraryAdmin.restore.confirm") : t("libraryAdmin.archive.confirm")}
                  okText={t("crud.ok")}
                  cancelText={t("crud.cancel")}
                  onConfirm={async () => {
                    try {
                      await refreshing(library.archivedAt ? restoreLibrary : archiveLibrary)(library.id);
                    } catch (error) {
                      showRefusal(error, (text) => message.error(text));
                      return;
                    }
                    message.success(library.archivedAt ? t("libraryAdmin.restored") : t("libraryAdmin.archived"));
                    await reload();
                  }}
                >
                  <Button type="link" size="small">
                    {library.archivedAt ? t("libraryAdmin.restore") : t("libraryAdmin.archive")}
                  </Button>
                </Popconfirm>
              </Access>,
            ]
      }
    />
  );
}
