import { CheckCircleOutlined, FolderOpenOutlined, LoadingOutlined, WarningOutlined } from "@ant-design/icons";
import { useQuery } from "@tanstack/react-query";
import { Button, Dropdown, Space, Typography } from "antd";
import { useTranslation } from "react-i18next";
import { listProjects, videoEditKeys } from "../../api/video-edit";
import type { AutosaveState } from "./use-project-autosave";

/** Opens a saved project in the editor (its address names it: `?projectId=`). */
function openProject(id: string, kind: string) {
  const url = new URL(window.location.href);
  for (const key of ["libraryId", "storyId"]) url.searchParams.delete(key);
  url.searchParams.set("projectId", id);
  if (kind === "slideshow") url.searchParams.set("mode", "slideshow");
  else url.searchParams.delete("mode");
  window.location.assign(url.toString());
}

/** The autosave's state ("saved 20:41", "saving…", why not) and the saved projects to reopen. */
export function ProjectBar({ status, projectId }: { status: AutosaveState; projectId: string | null }) {
  const { t, i18n } = useTranslation();
  const projects = useQuery({ queryKey: [...videoEditKeys.all, "projects"], queryFn: () => listProjects(20) });
  const state = (() => {
    switch (status.state) {
      case "saving":
        return (
          <Typography.Text type="secondary">
            <LoadingOutlined /> {t("videoEditor.project.saving")}
          </Typography.Text>
        );
      case "saved":
        return (
          <Typography.Text type="success">
            <CheckCircleOutlined />{" "}
            {t("videoEditor.project.saved", { time: status.at.toLocaleTimeString(i18n.language) })}
          </Typography.Text>
        );
      case "invalid":
        return (
          <Typography.Text type="warning" title={status.problem}>
            <WarningOutlined /> {t("videoEditor.project.invalid", { problem: status.problem })}
          </Typography.Text>
        );
      case "failed":
        return (
          <Typography.Text type="danger" title={status.message}>
            <WarningOutlined /> {t("videoEditor.project.failed")}
          </Typography.Text>
        );
      default:
        return <Typography.Text type="secondary">{t("videoEditor.project.new")}</Typography.Text>;
    }
  })();
  const items = (projects.data ?? [])
    .filter((project) => project.id !== projectId)
    .map((project) => ({
      key: project.id,
      label: `${project.title || t("videoEditor.project.untitled")} · ${new Date(project.updatedAt).toLocaleString(i18n.language)}`,
      onClick: () => openProject(project.id, project.kind),
    }));
  return (
    <Space wrap size="small" style={{ justifyContent: "space-between", width: "100%" }}>
      <span data-testid="video-project-state" data-state={status.state}>
        {state}
      </span>
      <Dropdown
        menu={{ items: items.length ? items : [{ key: "none", label: t("videoEditor.project.none"), disabled: true }] }}
        trigger={["click"]}
        onOpenChange={(open) => open && void projects.refetch()}
      >
        <Button size="small" icon={<FolderOpenOutlined />} data-testid="video-project-open">
          {t("videoEditor.project.open")}
        </Button>
      </Dropdown>
    </Space>
  );
}
