import { Modal } from "antd";
import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { logout } from "../../auth/logout";

/**
 * The logout confirmation (and its error), loaded the first time the user
 * asks to log out: Modal is not part of the pages' first load (issue 5).
 * Each new `request` number opens the dialog once.
 */
export function LogoutConfirm({ request }: { request: number }) {
  const { t } = useTranslation();
  const [modal, holder] = Modal.useModal();
  const shown = useRef(0);
  useEffect(() => {
    if (request === shown.current) return;
    shown.current = request;
    modal.confirm({
      title: t("layout.logout.title"),
      content: t("layout.logout.content"),
      okText: t("layout.ok"),
      cancelText: t("layout.cancel"),
      onOk: async () => {
        try {
          await logout();
        } catch (error) {
          modal.error({ title: t("layout.logout.errorTitle"), content: error instanceof Error ? error.message : "" });
        }
      },
    });
  }, [request, modal, t]);
  return holder;
}
