import { AppstoreOutlined, BarsOutlined, EditOutlined, ReloadOutlined } from "@ant-design/icons";
import { Button, Checkbox, Empty, Segmented, Skeleton, Space, Typography } from "antd";
import { type ReactNode, useCallback, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router-dom";
import { type Facets, STORY_TYPES, type Story, type StoryQuery, type StoryType } from "../api/stories";
import { batchSearchOf } from "../api/story-batch";
import { Access } from "../auth/access-component";
import { LazyPart, lazyChunk, useOpenedOnce } from "./lazy-part";
import { StatusNotice } from "./status-notice";
import { STORY_ACCESS } from "./story-actions";
import { PagedStoryGrid } from "./story-grid/paged-story-grid";
import { type FetchStoryPage, totalLine, usePagedStories } from "./story-grid/use-paged-stories";
import { useStorySelection } from "./story-grid/use-story-selection";
import { parseSearchState, type StorySearchState, toSearchParams } from "./story-search-state";
import { StorySelectionBar } from "./story-selection-bar";

// The viewer (players, waveform, history) loads when a story is first opened, not with the list.
const StoryViewer = lazyChunk("story-viewer", () => import("./story-viewer").then((m) => m.StoryViewer));
const BatchEditDialog = lazyChunk("batch-edit-dialog", () =>
  import("./story-edit/batch-edit-dialog").then((m) => m.BatchEditDialog),
);

/** The page's state from the URL, and a setter that writes it back (keeping other parameters). */
export function useStorySearchState(): [StorySearchState, (next: StorySearchState, replace?: boolean) => void] {
  const [params, setParams] = useSearchParams();
  const state = useMemo(() => parseSearchState(params), [params]);
  const update = useCallback(
    (next: StorySearchState, replace = false) => setParams((current) => toSearchParams(next, current), { replace }),
    [setParams],
  );
  return [state, update];
}

/** The stories selected in the browser, for a side panel that acts on them (a folder they are dropped on). */
export interface StorySelection {
  stories: Story[];
  clear: () => void;
}

/**
 * A list of stories to browse: the virtualized grid or list, selection with
 * its actions, and the viewer drawer. `side` is the facet panel or the folder
 * tree (given the selection); `emptyText` what to say when nothing matches;
 * `batchSearch` the list's query, which 编辑信息 may take as its target
 * (every story it matches, resolved by the server).
 */
export function StoryBrowser({
  queryKey,
  fetchPage,
  side,
  header,
  emptyText,
  batchSearch,
}: {
  queryKey: readonly unknown[];
  fetchPage: FetchStoryPage;
  batchSearch?: StoryQuery;
  side?: (facets: Facets | undefined, selection: StorySelection) => ReactNode;
  header?: ReactNode;
  emptyText: string;
}) {
  const { t } = useTranslation();
  const [state, setState] = useStorySearchState();
  const stories = usePagedStories(queryKey, fetchPage);
  const selection = useStorySelection();
  const [editingAll, setEditingAll] = useState(false);
  const searchTarget = useMemo(
    () =>
      batchSearch && !stories.isLoading && stories.total > 0
        ? { query: batchSearchOf(batchSearch), total: stories.total }
        : undefined,
    [batchSearch, stories.isLoading, stories.total],
  );

  const open = useCallback(
    (ref: { libraryId: string; storyId: string }) =>
      setState({ ...state, story: { libraryId: ref.libraryId, storyId: ref.storyId } }),
    [setState, state],
  );
  const viewerOpened = useOpenedOnce(state.story !== null);

  let body: ReactNode;
  if (stories.isLoading) body = <Skeleton active paragraph={{ rows: 8 }} data-testid="stories-loading" />;
  else if (stories.isError)
    body = (
      <StatusNotice
        status="error"
        title={t("stories.loadFailed")}
        extra={
          <Button icon={<ReloadOutlined />} onClick={() => void stories.refetch()}>
            {t("stories.retry")}
          </Button>
        }
      />
    );
  else if (stories.total === 0)
    body = <Empty style={{ padding: "48px 0" }} description={emptyText} data-testid="stories-empty" />;
  else
    body = (
      <PagedStoryGrid
        queryKey={queryKey}
        fetchPage={fetchPage}
        total={stories.total}
        view={state.view}
        selected={selection.keys}
        onToggle={selection.toggle}
        onToggleRange={selection.toggleRange}
        onOpen={open}
      />
    );

  const sideContent = side?.(stories.facets, { stories: [...selection.picked.values()], clear: selection.clear });
  return (
    <div>
      <div
        style={{
          display: "flex",
          justifyContent: "space-between",
          alignItems: "center",
          gap: 12,
          marginBottom: 8,
          flexWrap: "wrap",
        }}
      >
        <Space wrap>{header}</Space>
        <Space>
          {searchTarget ? (
            <Access action={STORY_ACCESS.edit}>
              <Button icon={<EditOutlined />} onClick={() => setEditingAll(true)} data-testid="batch-edit-all">
                {t("batchEdit.allAction")}
              </Button>
            </Access>
          ) : null}
          {stories.isLoading ? null : (
            <Typography.Text type="secondary" data-testid="stories-total">
              {t(...totalLine(stories))}
            </Typography.Text>
          )}
          <Segmented
            value={state.view}
            onChange={(view) => setState({ ...state, view: view as StorySearchState["view"] }, true)}
            options={[
              { value: "grid", icon: <AppstoreOutlined />, title: t("stories.view.grid") },
              { value: "list", icon: <BarsOutlined />, title: t("stories.view.list") },
            ]}
          />
        </Space>
      </div>
      <StorySelectionBar stories={[...selection.picked.values()]} search={searchTarget} onClear={selection.clear} />
      <div style={{ display: "flex", gap: 16, flexWrap: "wrap" }}>
        {sideContent ? <div className="dams-story-side">{sideContent}</div> : null}
        <div style={{ flex: 1, minWidth: 280 }}>{body}</div>
      </div>
      {editingAll && searchTarget ? (
        <LazyPart>
          <BatchEditDialog stories={[]} search={searchTarget} onClose={() => setEditingAll(false)} />
        </LazyPart>
      ) : null}
      {viewerOpened ? (
        <LazyPart>
          <StoryViewer target={state.story} onClose={() => setState({ ...state, story: null })} onOpen={open} />
        </LazyPart>
      ) : null}
    </div>
  );
}

/** The `types` filter (spec section 2: `types=VIDEO`), kept in the URL. */
export function StoryTypeFilter() {
  const { t } = useTranslation();
  const [state, setState] = useStorySearchState();
  return (
    <Checkbox.Group
      data-testid="types-filter"
      value={state.types}
      onChange={(types) => setState({ ...state, types: types as StoryType[], story: null })}
      options={STORY_TYPES.map((type) => ({ value: type, label: t(`stories.type.${type}`) }))}
    />
  );
}
