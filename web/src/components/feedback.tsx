import { message as staticMessage, theme } from "antd";
import type { MessageInstance } from "antd/es/message/interface";
import { createContext, type ReactNode, useContext, useMemo } from "react";
import { MESSAGE_CONFIG } from "../config";

interface Feedback {
  /** antd's message, rendered inside the app: it follows the theme and the language. */
  message: MessageInstance;
}

// Outside the provider (unit tests of single components): antd's static message.
const FeedbackContext = createContext<Feedback>({ message: staticMessage });

/**
 * What the app took from antd's `App`: the contextual message and the base
 * text style (colour, size, line height, font) around the pages. antd's `App`
 * also builds the modal and notification hooks, which put Modal in every
 * page's first load (issue 5); a part that needs a modal uses Modal.useModal.
 */
export function FeedbackProvider({ children }: { children: ReactNode }) {
  const [message, holder] = staticMessage.useMessage(MESSAGE_CONFIG);
  const { token } = theme.useToken();
  const value = useMemo(() => ({ message }), [message]);
  return (
    <FeedbackContext.Provider value={value}>
      {holder}
      <div
        className="dams-app"
        style={{
          color: token.colorText,
          fontSize: token.fontSize,
          lineHeight: token.lineHeight,
          fontFamily: token.fontFamily,
        }}
      >
        {children}
      </div>
    </FeedbackContext.Provider>
  );
}

export function useFeedback(): Feedback {
  return useContext(FeedbackContext);
}
