import type { FormRule } from "antd";
import type { TFunction } from "i18next";

/** The shortest password the forms take (registration, an administrator's new user or password reset). */
export const PASSWORD_MIN = 8;

/** A new password: given, and at least PASSWORD_MIN characters. */
export const newPasswordRules = (t: TFunction): FormRule[] => [
  { required: true, message: t("user.field.password.required") },
  { min: PASSWORD_MIN, message: t("user.field.password.min", { min: PASSWORD_MIN }) },
];

/** The new password typed again: given, and the same as the form's `password` field. */
export const confirmPasswordRules = (t: TFunction): FormRule[] => [
  { required: true, message: t("user.field.confirm.required") },
  ({ getFieldValue }) => ({
    validator: (_, value) =>
      !value || getFieldValue("password") === value
        ? Promise.resolve()
        : Promise.reject(new Error(t("user.field.confirm.mismatch"))),
  }),
];
