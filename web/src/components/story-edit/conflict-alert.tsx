import { Alert } from "antd";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";

/**
 * The warning above a form whose save met a newer revision of the story (HTTP 409): what changed meanwhile
 * (`description`), and the way on (reload or overwrite) where the dialog does not keep it in its footer.
 */
export function ConflictAlert({
  testId,
  description,
  action,
}: {
  testId: string;
  description: ReactNode;
  action?: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Alert
      type="warning"
      showIcon
      style={{ marginBottom: 16 }}
      message={t("editInfo.conflict.title")}
      description={description}
      data-testid={testId}
      action={action}
    />
  );
}
