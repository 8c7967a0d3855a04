import { Button, Checkbox, Empty, Input, Select, Space, Typography } from "antd";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { useLibraries } from "../../../api/libraries";
import { STORY_TYPES, type StoryQuery, type StoryType } from "../../../api/stories";
import { type Embed, EmbedFrame } from "../../../components/embed/embed-frame";
import { EMBED_MESSAGES, toEmbeddedStory } from "../../../components/embed/protocol";
import { useFeedback } from "../../../components/feedback";
import { StoryPickGrid } from "../../../components/story-grid/story-pick-grid";
import { useStorySelection } from "../../../components/story-grid/use-story-selection";
import { storyTypes } from "../../../components/story-search-state";

/**
 * Material selection (spec section 2, /source/ismpsource), for other newsroom
 * systems to frame: find stories, pick some, and send the choice to the
 * opener (docs/embedding.md).
 */
export default function SourceIsmpsourcePage() {
  return <EmbedFrame page="ismpsource">{(embed) => <MaterialSelection embed={embed} />}</EmbedFrame>;
}

function MaterialSelection({ embed }: { embed: Embed }) {
  const { t } = useTranslation();
  const { message } = useFeedback();
  const initialTypes = useMemo(() => storyTypes(new URLSearchParams(window.location.search).get("types")), []);
  const [text, setText] = useState("");
  const [query, setQuery] = useState<StoryQuery>({ types: initialTypes });
  const libraries = useLibraries();
  const { picked: selected, keys: selectedKeys, toggle } = useStorySelection();

  const confirm = () => {
    const chosen = [...selected.values()].map((story) => toEmbeddedStory(story, window.location.origin));
    if (embed.post({ type: EMBED_MESSAGES.selection, stories: chosen }))
      message.success(t("embed.sent", { count: chosen.length }));
    else message.error(t("embed.noOpener"));
  };
  const cancel = () => {
    if (!embed.post({ type: EMBED_MESSAGES.cancel })) message.error(t("embed.noOpener"));
  };

  return (
    <div data-testid="embed-source">
      <Space wrap style={{ marginBottom: 12 }}>
        <Input.Search
          aria-label={t("search.placeholder")}
          placeholder={t("search.placeholder")}
          value={text}
          onChange={(event) => setText(event.target.value)}
          onSearch={(value) => setQuery({ ...query, fulltext: value.trim() })}
          enterButton
          allowClear
          style={{ width: "min(420px, calc(100vw - 48px))" }}
        />
        <Select
          allowClear
          placeholder={t("embed.library")}
          aria-label={t("embed.library")}
          style={{ minWidth: 160 }}
          value={query.libraryId}
          onChange={(libraryId?: string) => setQuery({ ...query, libraryId })}
          options={(libraries.data ?? []).map((library) => ({ value: library.id, label: library.name }))}
        />
        <Checkbox.Group
          value={[...(query.types ?? [])]}
          onChange={(types) => setQuery({ ...query, types: types as StoryType[] })}
          options={STORY_TYPES.map((type) => ({ value: type, label: t(`stories.type.${type}`) }))}
        />
      </Space>
      <StoryPickGrid
        scope="embed"
        query={query}
        selected={selectedKeys}
        onToggle={toggle}
        height="calc(100vh - 180px)"
        empty={<Empty description={t("search.empty")} />}
      />
      <div
        style={{
          position: "sticky",
          bottom: 0,
          display: "flex",
          justifyContent: "space-between",
          alignItems: "center",
          padding: "12px 0",
          background: "#fff",
        }}
      >
        <Typography.Text data-testid="embed-selected">
          {t("stories.selected", { count: selected.size })}
        </Typography.Text>
        <Space>
          <Button onClick={cancel} data-testid="embed-cancel">
            {t("crud.cancel")}
          </Button>
          <Button type="primary" disabled={selected.size === 0} onClick={confirm} data-testid="embed-confirm">
            {t("embed.confirm")}
          </Button>
        </Space>
      </div>
    </div>
  );
}
