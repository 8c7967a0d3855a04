import "./manuscript.css";
import { PictureOutlined } from "@ant-design/icons";
import { Typography } from "antd";
import type { ReactNode } from "react";
import type { ManuscriptMember, ManuscriptPart } from "../../api/composites";
import { unplacedMembers } from "../composite/composite-logic";

/**
 * A composite as a manuscript: its text in reading order — the server's
 * sanitised HTML parts, and its members where the text places them — then
 * the members the text does not place, in the composite's order. The
 * viewer and the share visitor's page both show a composite with it, each
 * rendering a member its own way.
 */
export function ManuscriptView<M extends { storyId: string }>({
  parts,
  members,
  renderMember,
  unplacedTitle,
}: {
  parts: readonly ManuscriptPart[];
  members: readonly M[];
  renderMember: (member: M) => ReactNode;
  /** A heading over the members the text does not place (when it places some). */
  unplacedTitle?: string;
}) {
  const byId = new Map(members.map((member) => [member.storyId, member]));
  const rest = unplacedMembers(parts, members);
  const placesSome = rest.length < members.length;
  // The parts are the text's reading order and never reorder in place; a member may be placed twice.
  const keyed = parts.map((part, at) => ({ part, key: `${part.kind}-${at}` }));
  return (
    <div data-testid="manuscript">
      {keyed.map(({ part, key }) => {
        if (part.kind === "html") {
          return (
            <div
              key={key}
              className="dams-manuscript-text"
              data-testid="manuscript-text"
              // The server sanitised it by a whitelist (no scripts, event attributes or javascript: links).
              // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised HTML from the server
              dangerouslySetInnerHTML={{ __html: part.html }}
            />
          );
        }
        const member = byId.get(part.storyId);
        return member ? (
          <figure key={key} style={{ margin: "12px 0" }} data-testid="manuscript-member" data-story-id={member.storyId}>
            {renderMember(member)}
          </figure>
        ) : null;
      })}
      {rest.length > 0 ? (
        <section data-testid="manuscript-unplaced" style={{ marginTop: 16 }}>
          {placesSome && unplacedTitle ? <Typography.Title level={5}>{unplacedTitle}</Typography.Title> : null}
          {rest.map((member) => (
            <figure
              key={member.storyId}
              style={{ margin: "12px 0" }}
              data-testid="manuscript-member"
              data-story-id={member.storyId}
            >
              {renderMember(member)}
            </figure>
          ))}
        </section>
      ) : null}
    </div>
  );
}

/** A member of a manuscript in the app: its still, large, and its title; a click opens it. */
export function MemberTile({ member, onOpen }: { member: ManuscriptMember; onOpen: () => void }) {
  return (
    <button
      type="button"
      onClick={onOpen}
      data-testid="manuscript-tile"
      style={{
        display: "block",
        width: "100%",
        border: 0,
        padding: 0,
        background: "none",
        cursor: "pointer",
        textAlign: "start",
      }}
    >
      <div
        style={{
          width: "100%",
          minHeight: 120,
          borderRadius: 6,
          overflow: "hidden",
          background: "#f5f5f5",
          display: "grid",
          placeItems: "center",
        }}
      >
        {member.thumbnailUrl ? (
          <img
            src={member.thumbnailUrl}
            alt={member.title}
            style={{ width: "100%", maxHeight: "60vh", objectFit: "contain", display: "block" }}
          />
        ) : (
          <PictureOutlined style={{ fontSize: 40, color: "#bfbfbf" }} />
        )}
      </div>
      <span style={{ display: "block", marginTop: 4, color: "#8c8c8c", fontSize: 13 }}>{member.title}</span>
    </button>
  );
}
