import { ShareAltOutlined } from "@ant-design/icons";
import { Breadcrumb, Button } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useNavigate, useParams, useSearchParams } from "react-router-dom";
import { useFolders } from "../../../api/folders";
import { libraryName, useLibraries } from "../../../api/libraries";
import { searchStories, storyKeys } from "../../../api/stories";
import { Access } from "../../../auth/access-component";
import { LazyPart, lazyChunk } from "../../../components/lazy-part";
import { STORY_ACCESS } from "../../../components/story-actions";
import { StoryBrowser, StoryTypeFilter, useStorySearchState } from "../../../components/story-browser";
import { folderPath } from "./components/folder-path";
import { LibraryFolders } from "./components/library-folders";

const ShareDialog = lazyChunk("share-dialog", () =>
  import("../../../components/share-dialog").then((m) => m.ShareDialog),
);

/** Browsing a library, or a folder in it: /frontend/:library/:folderId? with `types`. */
export default function LibraryPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const { library = "", folderId } = useParams();
  const [state] = useStorySearchState();
  const libraries = useLibraries();
  const folders = useFolders(library || undefined);
  const path = folderPath(folders.data ?? [], folderId);
  const keep = params.get("types") ? `?types=${encodeURIComponent(params.get("types") ?? "")}` : "";
  const query = { libraryId: library, folderId, types: state.types };
  const [sharing, setSharing] = useState(false);
  const folder = path[path.length - 1];
  return (
    <StoryBrowser
      queryKey={storyKeys.list("library", query)}
      fetchPage={(page, size) => searchStories({ ...query, page, size, ...(page > 0 ? { facets: "false" } : {}) })}
      batchSearch={query}
      emptyText={folderId ? t("library.folderEmpty") : t("library.empty")}
      header={
        <>
          <Breadcrumb
            data-testid="library-breadcrumb"
            items={[
              {
                title: (
                  <Link to={`/frontend/${encodeURIComponent(library)}${keep}`}>
                    {libraryName(libraries.data, library)}
                  </Link>
                ),
              },
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
          {folderId && folder ? (
            <Access action={STORY_ACCESS.share}>
              <Button
                size="small"
                icon={<ShareAltOutlined />}
                onClick={() => setSharing(true)}
                data-testid="folder-share"
              >
                {t("share.shareFolder")}
              </Button>
            </Access>
          ) : null}
          {sharing && folderId ? (
            <LazyPart>
              <ShareDialog
                target={{ kind: "folder", libraryId: library, folderId }}
                defaultTitle={folder?.name ?? ""}
                onClose={() => setSharing(false)}
              />
            </LazyPart>
          ) : null}
        </>
      }
      side={(_, selection) => (
        <LibraryFolders
          libraryId={library}
          libraryName={libraryName(libraries.data, library)}
          level={libraries.data?.find((candidate) => candidate.id === library)?.level}
          folderId={folderId}
          selection={selection}
          onOpenFolder={(id) =>
            navigate(`/frontend/${encodeURIComponent(library)}${id ? `/${encodeURIComponent(id)}` : ""}${keep}`)
          }
        />
      )}
    />
  );
}
