import { DeleteOutlined, HolderOutlined } from "@ant-design/icons";
import {
  closestCenter,
  DndContext,
  type DragEndEvent,
  KeyboardSensor,
  PointerSensor,
  useSensor,
  useSensors,
} from "@dnd-kit/core";
import {
  SortableContext,
  sortableKeyboardCoordinates,
  useSortable,
  verticalListSortingStrategy,
} from "@dnd-kit/sortable";
import { CSS } from "@dnd-kit/utilities";
import { Button, Empty, Grid, Radio, Tag, Tooltip, Typography } from "antd";
import { useTranslation } from "react-i18next";
import { coverRole, type ManuscriptMember } from "../../api/composites";
import { moveMember } from "./composite-logic";
import { MemberThumb } from "./member-thumb";

/**
 * The composite's members in order: dragged (or moved with the keyboard:
 * space, arrows, space) to reorder, one chosen as the cover, each removable.
 */
export function MemberList({
  members,
  cover,
  onChange,
  onCover,
}: {
  members: readonly ManuscriptMember[];
  /** The member chosen as cover in this dialog. */
  cover: string | null;
  onChange: (members: ManuscriptMember[]) => void;
  onCover: (storyId: string) => void;
}) {
  const { t } = useTranslation();
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (over && active.id !== over.id) onChange(moveMember(members, String(active.id), String(over.id)));
  };
  if (members.length === 0)
    return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t("composite.noMembers")} />;
  return (
    <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={onDragEnd}>
      <SortableContext items={members.map((member) => member.storyId)} strategy={verticalListSortingStrategy}>
        <Radio.Group
          value={cover}
          onChange={(event) => onCover(event.target.value)}
          style={{ width: "100%", fontSize: "inherit" }}
        >
          <ol style={{ listStyle: "none", margin: 0, padding: 0 }} data-testid="composite-members">
            {members.map((member, index) => (
              <MemberRow
                key={member.storyId}
                member={member}
                index={index}
                onRemove={() => onChange(members.filter((other) => other.storyId !== member.storyId))}
              />
            ))}
          </ol>
        </Radio.Group>
      </SortableContext>
    </DndContext>
  );
}

function MemberRow({ member, index, onRemove }: { member: ManuscriptMember; index: number; onRemove: () => void }) {
  const { t } = useTranslation();
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({
    id: member.storyId,
  });
  const title = member.title || t("stories.untitled");
  // On a phone the title keeps the room the type tag would take.
  const wide = Grid.useBreakpoint().sm !== false;
  return (
    <li
      ref={setNodeRef}
      data-testid="composite-member"
      data-story-id={member.storyId}
      style={{
        display: "flex",
        alignItems: "center",
        gap: 8,
        padding: 6,
        marginBottom: 6,
        borderRadius: 6,
        border: "1px solid #f0f0f0",
        background: isDragging ? "#e6f4ff" : "#fff",
        position: "relative",
        zIndex: isDragging ? 1 : undefined,
        transform: CSS.Translate.toString(transform),
        transition,
      }}
    >
      <button
        type="button"
        ref={setActivatorNodeRef}
        {...attributes}
        {...listeners}
        aria-label={t("composite.dragMember", { title })}
        data-testid="composite-member-handle"
        style={{ border: 0, background: "none", cursor: "grab", padding: 4, touchAction: "none" }}
      >
        <HolderOutlined />
      </button>
      <span style={{ flex: "none", width: 20, color: "#595959", textAlign: "end" }}>{index + 1}</span>
      <MemberThumb url={member.thumbnailUrl} alt={title} width={64} height={44} />
      <Typography.Text ellipsis style={{ flex: 1, minWidth: 0 }}>
        {title}
      </Typography.Text>
      {wide ? (
        <Tag style={{ marginInlineEnd: 0 }}>{t(`stories.type.${member.type}`, { defaultValue: member.type })}</Tag>
      ) : null}
      <Tooltip title={coverRole(member) ? undefined : t("composite.noCover")}>
        <Radio value={member.storyId} disabled={!coverRole(member)} data-testid="composite-member-cover">
          {t("composite.cover")}
        </Radio>
      </Tooltip>
      <Button
        type="text"
        size="small"
        danger
        icon={<DeleteOutlined />}
        aria-label={t("composite.removeMember", { title })}
        data-testid="composite-member-remove"
        onClick={onRemove}
      />
    </li>
  );
}
