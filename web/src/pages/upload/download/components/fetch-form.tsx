import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Alert, Button, Form, Input, Select, Space, TreeSelect } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { folderOptions, useFolders } from "../../../../api/folders";
import { ApiError, localizedMessage } from "../../../../api/http";
import { useLibraries } from "../../../../api/libraries";
import { startUrlFetch, urlFetchKeys } from "../../../../api/url-ingest";
import { useFeedback } from "../../../../components/feedback";

const DEFAULT_LIBRARY = "material";

/** The URLs of a paste: one per line, blank lines and duplicates dropped. */
export function urlsOf(text: string): string[] {
  return [
    ...new Set(
      text
        .split(/\r?\n/)
        .map((line) => line.trim())
        .filter(Boolean),
    ),
  ];
}

/** Paste URLs, pick library and folder, start: each URL becomes a fetch, or shows why it was refused. */
export function FetchForm() {
  const { t } = useTranslation();
  const { message } = useFeedback();
  const queryClient = useQueryClient();
  const [text, setText] = useState("");
  const [libraryId, setLibraryId] = useState(DEFAULT_LIBRARY);
  const [folderId, setFolderId] = useState<string | undefined>();
  const [refusals, setRefusals] = useState<{ url: string; reason: string }[]>([]);
  const libraries = useLibraries();
  const folders = useFolders(libraryId);

  const start = useMutation({
    mutationFn: async (urls: string[]) => {
      const refused: { url: string; reason: string }[] = [];
      let started = 0;
      for (const url of urls) {
        try {
          await startUrlFetch({ url, libraryId, folderId: folderId ?? null });
          started++;
        } catch (error) {
          // In the UI language when the server names its reason; its English text ("url: Refused: …") without the field otherwise.
          refused.push({
            url,
            reason: (error instanceof ApiError ? localizedMessage(error) : String(error)).replace(/^url: /, ""),
          });
        }
      }
      return { started, refused };
    },
    onSuccess: ({ started, refused }) => {
      setRefusals(refused);
      if (started > 0) message.success(t("urlIngest.started", { count: started }));
      setText(refused.map((item) => item.url).join("\n"));
      void queryClient.invalidateQueries({ queryKey: urlFetchKeys.all });
    },
  });

  const submit = () => {
    const urls = urlsOf(text);
    if (urls.length === 0) {
      setRefusals([]);
      void message.warning(t("urlIngest.noUrls"));
      return;
    }
    start.mutate(urls);
  };

  return (
    <Form layout="vertical" onFinish={submit} data-testid="url-fetch-form">
      <Form.Item label={t("urlIngest.urls")} htmlFor="url-fetch-urls">
        <Input.TextArea
          id="url-fetch-urls"
          rows={4}
          value={text}
          placeholder={t("urlIngest.urlsPlaceholder")}
          onChange={(event) => setText(event.target.value)}
        />
      </Form.Item>
      <Space wrap align="end">
        <Form.Item label={t("urlIngest.library")}>
          <Select
            style={{ minWidth: 200 }}
            value={libraryId}
            loading={libraries.isLoading}
            options={(libraries.data ?? []).map((library) => ({ value: library.id, label: library.name }))}
            onChange={(value: string) => {
              setLibraryId(value);
              setFolderId(undefined);
            }}
          />
        </Form.Item>
        <Form.Item label={t("urlIngest.folder")}>
          <TreeSelect
            style={{ minWidth: 220 }}
            allowClear
            value={folderId}
            placeholder={t("urlIngest.folderNone")}
            treeData={folderOptions(folders.data ?? [])}
            onChange={(value?: string) => setFolderId(value)}
          />
        </Form.Item>
        <Form.Item>
          <Button type="primary" htmlType="submit" loading={start.isPending}>
            {t("urlIngest.start")}
          </Button>
        </Form.Item>
      </Space>
      {refusals.length > 0 && (
        <Alert
          type="error"
          showIcon
          data-testid="url-fetch-refusals"
          message={t("urlIngest.refused")}
          description={
            <ul style={{ margin: 0, paddingInlineStart: 16 }}>
              {refusals.map((item) => (
                <li key={item.url}>
                  <code>{item.url}</code>: {item.reason}
                </li>
              ))}
            </ul>
          }
        />
      )}
    </Form>
  );
}
