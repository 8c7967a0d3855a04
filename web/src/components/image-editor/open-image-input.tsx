import type { RefObject } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router-dom";
import { IMAGE_EDIT_ACCEPT } from "../../config";
import { useFeedback } from "../feedback";
import { HEADER_UPLOAD_EXTENSIONS, isAcceptedImage } from "./file-types";

/**
 * The hidden file input that opens a picked image in the editor at `path` (the header's image-edit action, the
 * bare editor page's picker). Spec section 5: .jpg .jpeg .png .bmp only, anything else earns a warning; the file
 * itself rides in the history state (structured clone).
 */
export function OpenImageInput({
  inputRef,
  path,
  testId,
}: {
  inputRef: RefObject<HTMLInputElement>;
  path: string;
  testId: string;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { message } = useFeedback();
  return (
    <input
      ref={inputRef}
      type="file"
      accept={IMAGE_EDIT_ACCEPT}
      hidden
      data-testid={testId}
      onChange={(event) => {
        const file = event.target.files?.[0];
        event.target.value = "";
        if (!file) return;
        if (isAcceptedImage(file, HEADER_UPLOAD_EXTENSIONS)) navigate(path, { state: { file, fileName: file.name } });
        else message.warning(t("imageEditor.notImage"));
      }}
    />
  );
}
