import { useQuery } from "@tanstack/react-query";
import { Alert, Form, Modal, Select, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ApiError } from "../../api/http";
import { useFeedback } from "../feedback";

/** Deleting an entry stories use may merge it into another entry of the same kind instead. */
export interface MergeChoice<T> {
  /** The entry's name, for the dialog's text. */
  label: (record: T) => string;
  /** Other entries of the same kind the picker offers (searched on the server), without `record` itself. */
  candidates: (record: T, keyword: string) => Promise<{ value: string; label: string }[]>;
  /** Deletes `record` after pointing its stories at `intoId`; answers how many stories changed. */
  run: (record: T, intoId: string) => Promise<{ stories: number } | null | unknown>;
}

/**
 * The in-use refusal of a delete, with the way out: pick another entry of the
 * same kind, read what will happen, confirm.
 */
export function MergeDialog<T>({
  record,
  refusal,
  choice,
  onClose,
}: {
  record: T;
  refusal: string;
  choice: MergeChoice<T>;
  onClose: (merged: boolean) => void;
}) {
  const { t } = useTranslation();
  const { message } = useFeedback();
  const [keyword, setKeyword] = useState("");
  const [target, setTarget] = useState<{ value: string; label: string } | undefined>();
  const [busy, setBusy] = useState(false);
  const candidates = useQuery({
    queryKey: ["crud-merge", choice.label(record), keyword],
    queryFn: () => choice.candidates(record, keyword),
  });
  const from = choice.label(record);
  return (
    <Modal
      open
      title={t("crud.merge.title", { name: from })}
      okText={t("crud.merge.ok")}
      cancelText={t("crud.cancel")}
      okButtonProps={{ disabled: !target, danger: true }}
      confirmLoading={busy}
      onCancel={() => onClose(false)}
      onOk={async () => {
        if (!target) return;
        setBusy(true);
        try {
          const result = (await choice.run(record, target.value)) as { stories?: number } | null;
          message.success(t("crud.merge.done", { count: result?.stories ?? 0, into: target.label }));
          onClose(true);
        } catch (error) {
          // A 409 (the target went meanwhile…) is explained here; other failures the API client reported.
          if (error instanceof ApiError && error.status === 409) message.error(error.message);
        } finally {
          setBusy(false);
        }
      }}
      destroyOnHidden
    >
      <div data-testid="crud-merge">
        <Alert type="warning" showIcon message={refusal} style={{ marginBottom: 16 }} />
        <Form layout="vertical">
          <Form.Item label={t("crud.merge.target")} required>
            <Select
              showSearch
              labelInValue
              filterOption={false}
              value={target}
              placeholder={t("crud.merge.placeholder")}
              onSearch={setKeyword}
              onChange={(value: { value: string; label: string }) => setTarget(value)}
              loading={candidates.isFetching}
              options={candidates.data ?? []}
              data-testid="crud-merge-target"
            />
          </Form.Item>
        </Form>
        {target ? (
          <Typography.Paragraph data-testid="crud-merge-explain">
            {t("crud.merge.explain", { from, into: target.label })}
          </Typography.Paragraph>
        ) : null}
      </div>
    </Modal>
  );
}
