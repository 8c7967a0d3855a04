import { type ActionType, type ProColumns, ProTable } from "@ant-design/pro-components";
import { Empty, Tag, Typography } from "antd";
import { type ReactNode, useRef } from "react";
import { useTranslation } from "react-i18next";
import { libraryName, useLibraries } from "../api/libraries";
import type { PageOf } from "../api/paging";
import { STORY_TYPES, type Story, type StoryQuery } from "../api/stories";
import { DEFAULT_PAGE_SIZE, rangeParams } from "./crud-table/paging";
import { useStorySearchState } from "./story-browser";
import { StoryViewer } from "./story-viewer";

interface StoryFilters {
  keyword?: string;
  types?: StoryQuery["types"];
  status?: StoryQuery["status"];
  libraryId?: string;
  current?: number;
  pageSize?: number;
}

/** The API query of the table's filter form and paging (ProTable pages from 1, the API from 0). */
export function tableQuery(params: StoryFilters): StoryQuery {
  const query: StoryQuery = {
    page: Math.max(0, (params.current ?? 1) - 1),
    size: params.pageSize && params.pageSize > 0 ? params.pageSize : DEFAULT_PAGE_SIZE,
  };
  const keyword = params.keyword?.trim();
  if (keyword) query.keyword = keyword;
  if (params.types?.length) query.types = params.types;
  if (params.status?.length) query.status = params.status;
  if (params.libraryId) query.libraryId = params.libraryId;
  return query;
}

const STATE_COLORS: Record<Story["processingState"], string> = {
  none: "default",
  queued: "gold",
  running: "processing",
  done: "success",
  failed: "error",
};

/** A ProTable of stories with filters (keyword, type, status, library); titles open the viewer. */
export function StoryTable({
  list,
  headerTitle,
  rowActions,
  toolbar,
  hideStatus,
  emptyText,
}: {
  list: (query: StoryQuery) => Promise<PageOf<Story>>;
  headerTitle?: ReactNode;
  rowActions?: (story: Story, reload: () => Promise<void>) => ReactNode[];
  /** Buttons above the table (beside reload), given the table's reload. */
  toolbar?: (reload: () => Promise<void>) => ReactNode[];
  hideStatus?: boolean;
  /** What an empty table says. */
  emptyText: string;
}) {
  const { t, i18n } = useTranslation();
  const actionRef = useRef<ActionType>(null);
  const [state, setState] = useStorySearchState();
  const libraries = useLibraries();
  const reload = async () => {
    await actionRef.current?.reload();
  };
  const columns: ProColumns<Story>[] = [
    {
      title: t("stories.meta.title"),
      dataIndex: "keyword",
      render: (_, story) => (
        <Typography.Link
          onClick={() => setState({ ...state, story: { libraryId: story.libraryId, storyId: story.storyId } })}
        >
          {story.title || story.originalName || t("stories.untitled")}
        </Typography.Link>
      ),
    },
    {
      title: t("stories.meta.type"),
      dataIndex: "types",
      valueType: "select",
      fieldProps: { mode: "multiple" },
      valueEnum: Object.fromEntries(STORY_TYPES.map((type) => [type, { text: t(`stories.type.${type}`) }])),
      render: (_, story) => t(`stories.type.${story.type}`),
    },
    {
      title: t("stories.meta.library"),
      dataIndex: "libraryId",
      valueType: "select",
      valueEnum: Object.fromEntries((libraries.data ?? []).map((library) => [library.id, { text: library.name }])),
      render: (_, story) => libraryName(libraries.data, story.libraryId),
    },
    ...(hideStatus
      ? []
      : [
          {
            title: t("stories.meta.status"),
            dataIndex: "status",
            valueType: "select",
            fieldProps: { mode: "multiple" },
            valueEnum: Object.fromEntries(
              ["draft", "committed", "published"].map((status) => [status, { text: t(`stories.status.${status}`) }]),
            ),
            render: (_: unknown, story: Story) => t(`stories.status.${story.status}`),
          } satisfies ProColumns<Story>,
        ]),
    {
      title: t("stories.meta.processing"),
      dataIndex: "processingState",
      search: false,
      render: (_, story) => (
        <Tag color={STATE_COLORS[story.processingState]} title={story.processingError ?? undefined}>
          {t(`stories.processing.state.${story.processingState}`)}
        </Tag>
      ),
    },
    {
      title: t("stories.meta.updatedAt"),
      dataIndex: "updatedAt",
      search: false,
      render: (_, story) => new Date(story.updatedAt).toLocaleString(i18n.language),
    },
    ...(rowActions
      ? [
          {
            title: t("crud.actions"),
            valueType: "option",
            key: "actions",
            render: (_: unknown, story: Story) => rowActions(story, reload),
          } satisfies ProColumns<Story>,
        ]
      : []),
  ];
  return (
    <>
      <ProTable<Story, StoryFilters>
        rowKey={(story) => `${story.libraryId}/${story.storyId}`}
        actionRef={actionRef}
        headerTitle={headerTitle}
        toolBarRender={toolbar ? () => toolbar(reload) : undefined}
        columns={columns}
        locale={{ emptyText: <Empty description={emptyText} /> }}
        search={{ labelWidth: "auto" }}
        options={{ reload: true, density: false, setting: false }}
        pagination={{
          defaultPageSize: DEFAULT_PAGE_SIZE,
          showSizeChanger: true,
          showQuickJumper: true,
          showTotal: (total, range) => t("crud.range", rangeParams(range, total)),
        }}
        request={async (params) => {
          const page = await list(tableQuery(params));
          return { data: page.content, total: page.totalElements, success: true };
        }}
      />
      <StoryViewer
        target={state.story}
        onClose={() => {
          setState({ ...state, story: null });
          void reload();
        }}
        onOpen={(ref) => setState({ ...state, story: ref })}
      />
    </>
  );
}
