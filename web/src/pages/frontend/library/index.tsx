import { FolderOutlined } from "@ant-design/icons";
import { useQuery } from "@tanstack/react-query";
import { Alert, Breadcrumb, Skeleton, Tree } from "antd";
import { useTranslation } from "react-i18next";
import { Link, useNavigate, useParams, useSearchParams } from "react-router-dom";
import { fetchFolders, fetchLibraries, searchStories } from "../../../api/stories";
import { StoryBrowser, StoryTypeFilter, useStorySearchState } from "../../../components/story-browser";
import { folderPath, toTreeData } from "./components/folder-path";

/** Browsing a library, or a folder in it: /frontend/:library/:folderId? with `types`. */
export default function LibraryPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const { library = "", folderId } = useParams();
  const [state] = useStorySearchState();
  const libraries = useQuery({ queryKey: ["libraries"], queryFn: fetchLibraries, staleTime: 60_000 });
  const folders = useQuery({
    queryKey: ["folders", library],
    queryFn: () => fetchFolders(library),
    enabled: library !== "",
  });
  const libraryName = libraries.data?.find((item) => item.id === library)?.name ?? library;
  const path = folderPath(folders.data ?? [], folderId);
  const keep = params.get("types") ? `?types=${encodeURIComponent(params.get("types") ?? "")}` : "";
  const query = { libraryId: library, folderId, types: state.types };
  return (
    <StoryBrowser
      queryKey={["stories", "library", query]}
      fetchPage={(page, size) => searchStories({ ...query, page, size, ...(page > 0 ? { facets: false } : {}) })}
      emptyText={folderId ? t("library.folderEmpty") : t("library.empty")}
      header={
        <>
          <Breadcrumb
            data-testid="library-breadcrumb"
            items={[
              { title: <Link to={`/frontend/${encodeURIComponent(library)}${keep}`}>{libraryName}</Link> },
              ...path.map((node) => ({
                title: (
                  <Link to={`/frontend/${encodeURIComponent(library)}/${encodeURIComponent(node.id)}${keep}`}>
                    {node.name}
                  </Link>
                ),
              })),
            ]}
          />
          <StoryTypeFilter />
        </>
      }
      side={() =>
        folders.isLoading ? (
          <Skeleton active />
        ) : folders.isError ? (
          <Alert type="error" message={t("library.foldersFailed")} />
        ) : (
          <nav aria-label={t("library.folders")} data-testid="folder-tree">
            <Tree
              showIcon
              blockNode
              defaultExpandAll
              icon={<FolderOutlined />}
              selectedKeys={folderId ? [folderId] : []}
              treeData={toTreeData(folders.data ?? [])}
              onSelect={(keys) => {
                const key = keys[0];
                navigate(
                  `/frontend/${encodeURIComponent(library)}${key ? `/${encodeURIComponent(String(key))}` : ""}${keep}`,
                );
              }}
            />
            {(folders.data ?? []).length === 0 ? <Alert type="info" message={t("library.noFolders")} /> : null}
          </nav>
        )
      }
    />
  );
}
