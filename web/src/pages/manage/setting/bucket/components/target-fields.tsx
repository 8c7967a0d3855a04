import { ProFormDependency, ProFormRadio, ProFormSwitch, ProFormText } from "@ant-design/pro-components";
import type { TFunction } from "i18next";
import type { StorageTarget } from "../../../../../api/storage";

/** Segments of a folder or prefix: as the server's blob keys. */
const SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/;

/** The add/edit form's fields: the kind, then the local folder or the bucket's settings. */
export function TargetFields({ t, target }: { t: TFunction; target?: StorageTarget }) {
  return (
    <>
      <ProFormText
        name="name"
        label={t("storage.name")}
        rules={[
          { required: true, whitespace: true, message: t("storage.name.required") },
          { max: 100, message: t("storage.name.required") },
        ]}
      />
      <ProFormRadio.Group
        name="kind"
        label={t("storage.kind")}
        radioType="button"
        options={[
          { label: t("storage.kind.local"), value: "local" },
          { label: t("storage.kind.s3"), value: "s3" },
        ]}
      />
      <ProFormDependency name={["kind"]}>
        {({ kind }) =>
          kind === "local" ? (
            <ProFormText
              name="directory"
              label={t("storage.directory")}
              tooltip={t("storage.directory.help")}
              extra={t("storage.directory.help")}
              rules={[
                { required: true, whitespace: true, message: t("storage.directory.required") },
                { pattern: SEGMENT, message: t("storage.directory.pattern") },
              ]}
            />
          ) : (
            <>
              <ProFormText
                name="endpoint"
                label={t("storage.endpoint")}
                extra={t("storage.endpoint.help")}
                placeholder="https://s3.example.com"
              />
              <ProFormText name="region" label={t("storage.region")} placeholder="us-east-1" />
              <ProFormText
                name="bucket"
                label={t("storage.bucket")}
                rules={[
                  { required: true, message: t("storage.bucket.required") },
                  { pattern: /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, message: t("storage.bucket.pattern") },
                ]}
              />
              <ProFormText name="prefix" label={t("storage.prefix")} placeholder="dams" />
              <ProFormSwitch name="pathStyle" label={t("storage.pathStyle")} extra={t("storage.pathStyle.help")} />
              <ProFormText name="accessKeyId" label={t("storage.accessKeyId")} />
              <ProFormText.Password
                name="secretAccessKey"
                label={t("storage.secretAccessKey")}
                extra={t("storage.secretAccessKey.help")}
                fieldProps={{ autoComplete: "new-password" }}
                placeholder={target?.secretSet ? t("storage.secretAccessKey.set") : undefined}
              />
            </>
          )
        }
      </ProFormDependency>
    </>
  );
}
