import { mergeAttributes, Node } from "@tiptap/core";
import { NodeViewWrapper, type ReactNodeViewProps, ReactNodeViewRenderer } from "@tiptap/react";
import { createContext, useContext } from "react";
import { useTranslation } from "react-i18next";
import type { ManuscriptMember } from "../../api/composites";
import { MEMBER_NODE } from "./composite-logic";
import { MemberThumb } from "./member-thumb";

/** The composite's members by story id, for the member nodes the editor shows. */
export const MembersContext = createContext<ReadonlyMap<string, ManuscriptMember>>(new Map());

/** A member placed in the text: its thumbnail and title (a block the user drags or deletes as one). */
function MemberView({ node, selected }: ReactNodeViewProps) {
  const { t } = useTranslation();
  const storyId = String(node.attrs.storyId ?? "");
  const member = useContext(MembersContext).get(storyId);
  return (
    <NodeViewWrapper
      data-testid="text-member"
      data-story-id={storyId}
      data-drag-handle=""
      contentEditable={false}
      style={{
        display: "flex",
        alignItems: "center",
        gap: 12,
        margin: "8px 0",
        padding: 6,
        borderRadius: 6,
        border: `1px solid ${selected ? "#1677ff" : "#d9d9d9"}`,
        background: "#fafafa",
        cursor: "grab",
      }}
    >
      <MemberThumb url={member?.thumbnailUrl} alt={member?.title ?? ""} width={96} height={64} iconSize={24} />
      <span style={{ minWidth: 0, overflow: "hidden", textOverflow: "ellipsis", whiteSpace: "nowrap" }}>
        {member ? member.title || t("stories.untitled") : t("composite.memberGone")}
      </span>
    </NodeViewWrapper>
  );
}

declare module "@tiptap/core" {
  interface Commands<ReturnType> {
    member: {
      /** Places a member of the composite at the cursor. */
      insertMember: (storyId: string) => ReturnType;
    };
  }
}

/** The `member` block node: `{ type: "member", attrs: { storyId } }`, the server's contract. */
export const MemberNode = Node.create({
  name: MEMBER_NODE,
  group: "block",
  atom: true,
  draggable: true,
  selectable: true,
  addAttributes() {
    return {
      storyId: {
        default: null,
        parseHTML: (element) => element.getAttribute("data-story-id"),
        renderHTML: (attributes) => ({ "data-story-id": attributes.storyId }),
      },
    };
  },
  parseHTML() {
    return [{ tag: "figure[data-member]" }];
  },
  renderHTML({ HTMLAttributes }) {
    return ["figure", mergeAttributes(HTMLAttributes, { "data-member": "" })];
  },
  addNodeView() {
    return ReactNodeViewRenderer(MemberView);
  },
  addCommands() {
    return {
      insertMember:
        (storyId) =>
        ({ commands }) =>
          commands.insertContent({ type: MEMBER_NODE, attrs: { storyId } }),
    };
  },
});
