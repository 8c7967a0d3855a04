import { type ProColumns, ProFormText } from "@ant-design/pro-components";
import { Modal } from "antd";
import { useTranslation } from "react-i18next";
import {
  type Codelist,
  type CodelistOption,
  createCodelistOption,
  deleteCodelistOption,
  listCodelistOptions,
  updateCodelistOption,
} from "../../../../api/catalogue";
import { CrudTable } from "../../../../components/crud-table";
import { crudAccess } from "../../../../components/crud-table/resource-table";
import { SortOrderField } from "../catalogue-shared/fields";
import { orderOrZero, trimmed } from "../catalogue-shared/form-values";

interface OptionForm extends Record<string, unknown> {
  value: string;
  label: string;
  sortOrder?: number;
}

const toInput = (values: OptionForm) => ({
  value: trimmed(values.value),
  label: trimmed(values.label),
  sortOrder: orderOrZero(values.sortOrder),
});

/** A code list's options, on the same generic table, in a dialog (spec section 9: 75–90% of the window). */
export function OptionsModal({
  codelist,
  permission,
  onClose,
}: {
  codelist: Codelist | null;
  permission: string;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const columns: ProColumns<CodelistOption>[] = [
    { title: t("catalogue.option.value"), dataIndex: "value" },
    { title: t("catalogue.option.label"), dataIndex: "label" },
    { title: t("catalogue.sortOrder"), dataIndex: "sortOrder", width: 90 },
  ];
  return (
    <Modal
      title={t("catalogue.codelist.options.title", { name: codelist?.name ?? "" })}
      open={codelist !== null}
      width="75%"
      footer={null}
      destroyOnHidden
      onCancel={onClose}
    >
      {codelist ? (
        <CrudTable<CodelistOption, OptionForm>
          rowKey="id"
          columns={columns}
          list={(query) => listCodelistOptions(codelist.id, query)}
          access={crudAccess(permission)}
          create={(values) => createCodelistOption(codelist.id, toInput(values))}
          update={(option, values) => updateCodelistOption(codelist.id, option.id, toInput(values))}
          remove={(option) => deleteCodelistOption(codelist.id, option.id)}
          toFormValues={(option) => ({ value: option.value, label: option.label, sortOrder: option.sortOrder })}
          formFields={() => (
            <>
              <ProFormText
                name="value"
                label={t("catalogue.option.value")}
                rules={[
                  { required: true, whitespace: true, message: t("catalogue.option.value.required") },
                  { max: 100, message: t("catalogue.max", { max: 100 }) },
                ]}
              />
              <ProFormText
                name="label"
                label={t("catalogue.option.label")}
                rules={[
                  { required: true, whitespace: true, message: t("catalogue.option.label.required") },
                  { max: 200, message: t("catalogue.max", { max: 200 }) },
                ]}
              />
              <SortOrderField t={t} />
            </>
          )}
        />
      ) : null}
    </Modal>
  );
}
