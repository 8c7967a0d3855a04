import { Progress, Table } from "antd";
import type { ColumnsType } from "antd/es/table";
import { useTranslation } from "react-i18next";
import type { StorageMonitor } from "../../../../../api/monitor";
import { formatSize } from "../../../../../components/story-viewer/format";

type LibraryRow = StorageMonitor["byLibrary"][number];
type VolumeRow = StorageMonitor["volumes"][number];

/** Stories, files and bytes of each library, split into originals, renditions and older versions. */
export function LibraryTable({ rows }: { rows: LibraryRow[] }) {
  const { t } = useTranslation();
  const columns: ColumnsType<LibraryRow> = [
    { title: t("monitor.storage.colLibrary"), render: (_, row) => row.libraryName ?? row.libraryId },
    { title: t("monitor.storage.colStories"), dataIndex: "stories", width: 90, align: "right" },
    { title: t("monitor.storage.colFiles"), dataIndex: "files", width: 90, align: "right" },
    {
      title: t("monitor.storage.colBytes"),
      dataIndex: "bytes",
      width: 110,
      align: "right",
      render: (bytes: number) => formatSize(bytes),
    },
    ...(["original", "rendition", "version"] as const).map((part) => ({
      title: t(`monitor.storage.part.${part}`),
      dataIndex: part,
      width: 110,
      align: "right" as const,
      render: (bytes: number) => formatSize(bytes),
    })),
  ];
  return (
    <Table<LibraryRow>
      rowKey="libraryId"
      size="small"
      columns={columns}
      dataSource={rows}
      pagination={false}
      scroll={{ x: 760 }}
      data-testid="storage-libraries"
    />
  );
}

/** The local volumes: used and free space. */
export function VolumeTable({ rows }: { rows: VolumeRow[] }) {
  const { t } = useTranslation();
  const columns: ColumnsType<VolumeRow> = [
    { title: t("monitor.storage.colVolume"), dataIndex: "name", width: 90 },
    { title: t("monitor.storage.colPath"), dataIndex: "path", ellipsis: true },
    {
      title: t("monitor.storage.colUsed"),
      width: 200,
      render: (_, row) => (
        <Progress
          size="small"
          percent={row.totalBytes ? Math.round(((row.totalBytes - row.freeBytes) / row.totalBytes) * 100) : 0}
          status={row.totalBytes && row.freeBytes / row.totalBytes < 0.1 ? "exception" : "normal"}
        />
      ),
    },
    {
      title: t("monitor.storage.colFree"),
      width: 150,
      align: "right",
      render: (_, row) => `${formatSize(row.freeBytes)} / ${formatSize(row.totalBytes)}`,
    },
  ];
  return (
    <Table<VolumeRow>
      rowKey="name"
      size="small"
      columns={columns}
      dataSource={rows}
      pagination={false}
      scroll={{ x: 600 }}
      locale={{ emptyText: t("monitor.storage.noVolumes") }}
      data-testid="storage-volumes"
    />
  );
}
