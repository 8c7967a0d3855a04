import "../manuscript/manuscript.css";
import {
  BoldOutlined,
  CodeOutlined,
  ItalicOutlined,
  LinkOutlined,
  MinusOutlined,
  OrderedListOutlined,
  PictureOutlined,
  StrikethroughOutlined,
  UnderlineOutlined,
  UnorderedListOutlined,
} from "@ant-design/icons";
import { type Editor, EditorContent, useEditor, useEditorState } from "@tiptap/react";
import StarterKit from "@tiptap/starter-kit";
import { Button, Divider, Dropdown, Input, Popover, Select, Space, Tooltip } from "antd";
import { type ReactNode, useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import type { ManuscriptMember, TextDoc } from "../../api/composites";
import { isEmptyText, MEMBER_NODE, placedMembers } from "./composite-logic";
import { MemberNode, MembersContext } from "./member-node";

/** The rich-text nodes and marks the server keeps (its whitelist): no code blocks, headings 1–4. */
export function textExtensions() {
  return [
    StarterKit.configure({
      codeBlock: false,
      heading: { levels: [1, 2, 3, 4] },
      link: { openOnClick: false, autolink: true, protocols: ["http", "https", "mailto"] },
    }),
    MemberNode,
  ];
}

/**
 * The composite's text: a TipTap editor with the manuscript's marks and
 * blocks, and the composite's members placed inline as blocks showing their
 * thumbnails. A member taken out of the composite leaves the text too.
 */
export function TextEditor({
  initial,
  members,
  onChange,
}: {
  initial: TextDoc | null;
  members: readonly ManuscriptMember[];
  /** The text after each change; null when it says nothing. */
  onChange: (doc: TextDoc | null) => void;
}) {
  const byId = useMemo(() => new Map(members.map((member) => [member.storyId, member])), [members]);
  const editor = useEditor({
    extensions: textExtensions(),
    content: initial ?? undefined,
    onUpdate: ({ editor: changed }) => {
      const doc = changed.getJSON() as TextDoc;
      onChange(isEmptyText(doc) ? null : doc);
    },
  });
  // Members taken out of the composite are taken out of the text.
  useEffect(() => {
    if (!editor) return;
    const gone: { from: number; to: number }[] = [];
    editor.state.doc.descendants((node, pos) => {
      if (node.type.name === MEMBER_NODE && !byId.has(String(node.attrs.storyId))) {
        gone.push({ from: pos, to: pos + node.nodeSize });
      }
    });
    if (gone.length === 0) return;
    const transaction = editor.state.tr;
    for (const range of gone.reverse()) transaction.delete(range.from, range.to);
    editor.view.dispatch(transaction);
  }, [editor, byId]);
  return (
    <MembersContext.Provider value={byId}>
      <div style={{ border: "1px solid #d9d9d9", borderRadius: 6 }} data-testid="composite-text">
        {editor ? <Toolbar editor={editor} members={members} /> : null}
        <EditorContent editor={editor} className="dams-text-editor" data-testid="composite-text-content" />
      </div>
    </MembersContext.Provider>
  );
}

function Toolbar({ editor, members }: { editor: Editor; members: readonly ManuscriptMember[] }) {
  const { t } = useTranslation();
  const state = useEditorState({
    editor,
    selector: ({ editor: current }) => ({
      level: ([1, 2, 3, 4] as const).find((level) => current.isActive("heading", { level })) ?? 0,
      bold: current.isActive("bold"),
      italic: current.isActive("italic"),
      strike: current.isActive("strike"),
      underline: current.isActive("underline"),
      code: current.isActive("code"),
      bulletList: current.isActive("bulletList"),
      orderedList: current.isActive("orderedList"),
      blockquote: current.isActive("blockquote"),
      link: current.isActive("link"),
      placed: placedMembers(current.getJSON() as TextDoc),
    }),
  });
  const chain = () => editor.chain().focus();
  const mark = (key: string, active: boolean, icon: ReactNode, run: () => void) => (
    <Tooltip title={t(`composite.text.${key}`)} key={key}>
      <Button
        size="small"
        type={active ? "primary" : "text"}
        icon={icon}
        aria-label={t(`composite.text.${key}`)}
        aria-pressed={active}
        data-testid={`text-${key}`}
        onMouseDown={(event) => event.preventDefault()}
        onClick={run}
      />
    </Tooltip>
  );
  return (
    <div
      style={{
        display: "flex",
        flexWrap: "wrap",
        alignItems: "center",
        gap: 2,
        padding: 4,
        borderBottom: "1px solid #f0f0f0",
      }}
      data-testid="text-toolbar"
    >
      <Select
        size="small"
        style={{ width: 96 }}
        value={state.level}
        aria-label={t("composite.text.block")}
        data-testid="text-block"
        onChange={(level: number) =>
          level === 0
            ? chain().setParagraph().run()
            : chain()
                .toggleHeading({ level: level as 1 | 2 | 3 | 4 })
                .run()
        }
        options={[0, 1, 2, 3, 4].map((level) => ({
          value: level,
          label: level === 0 ? t("composite.text.paragraph") : t("composite.text.heading", { level }),
        }))}
      />
      <Divider type="vertical" />
      {mark("bold", state.bold, <BoldOutlined />, () => chain().toggleBold().run())}
      {mark("italic", state.italic, <ItalicOutlined />, () => chain().toggleItalic().run())}
      {mark("strike", state.strike, <StrikethroughOutlined />, () => chain().toggleStrike().run())}
      {mark("underline", state.underline, <UnderlineOutlined />, () => chain().toggleUnderline().run())}
      {mark("code", state.code, <CodeOutlined />, () => chain().toggleCode().run())}
      <LinkButton editor={editor} active={state.link} />
      <Divider type="vertical" />
      {mark("bulletList", state.bulletList, <UnorderedListOutlined />, () => chain().toggleBulletList().run())}
      {mark("orderedList", state.orderedList, <OrderedListOutlined />, () => chain().toggleOrderedList().run())}
      {mark("blockquote", state.blockquote, <span aria-hidden>❝</span>, () => chain().toggleBlockquote().run())}
      {mark("rule", false, <MinusOutlined />, () => chain().setHorizontalRule().run())}
      <Divider type="vertical" />
      <Dropdown
        disabled={members.length === 0}
        trigger={["click"]}
        menu={{
          items: members.map((member, index) => ({
            key: member.storyId,
            label: `${index + 1}. ${member.title || t("stories.untitled")}${state.placed.includes(member.storyId) ? ` (${t("composite.text.placed")})` : ""}`,
          })),
          onClick: ({ key }) => chain().insertMember(key).run(),
        }}
      >
        <Button size="small" icon={<PictureOutlined />} data-testid="text-insert-member">
          {t("composite.text.insertMember")}
        </Button>
      </Dropdown>
    </div>
  );
}

/** The link of the selection: set, changed or taken off. */
function LinkButton({ editor, active }: { editor: Editor; active: boolean }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [href, setHref] = useState("");
  const apply = () => {
    const chain = editor.chain().focus().extendMarkRange("link");
    const url = href.trim();
    (url ? chain.setLink({ href: url }) : chain.unsetLink()).run();
    setOpen(false);
  };
  return (
    <Popover
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (next) setHref(String(editor.getAttributes("link").href ?? ""));
      }}
      trigger="click"
      content={
        <Space.Compact style={{ width: 280 }}>
          <Input
            autoFocus
            value={href}
            placeholder="https://"
            aria-label={t("composite.text.linkUrl")}
            data-testid="text-link-url"
            onChange={(event) => setHref(event.target.value)}
            onPressEnter={apply}
          />
          <Button type="primary" onClick={apply} data-testid="text-link-apply">
            {t("crud.ok")}
          </Button>
        </Space.Compact>
      }
    >
      <Tooltip title={t("composite.text.link")}>
        <Button
          size="small"
          type={active ? "primary" : "text"}
          icon={<LinkOutlined />}
          aria-label={t("composite.text.link")}
          aria-pressed={active}
          data-testid="text-link"
          onMouseDown={(event) => event.preventDefault()}
        />
      </Tooltip>
    </Popover>
  );
}
