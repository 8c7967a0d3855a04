import { StopOutlined } from "@ant-design/icons";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Button, Popconfirm } from "antd";
import { useTranslation } from "react-i18next";
import { deliveryKeys } from "../../api/publishing";
import type { Story } from "../../api/stories";
import { storyKeys } from "../../api/stories";
import { withdrawStory } from "../../api/story-detail";
import { useFeedback } from "../feedback";

/**
 * The viewer's "withdraw" of a published story: confirmed, then a kill goes to every channel the story went
 * to (ninjs `pubstatus: canceled`, NewsML-G2 `stat:canceled`; folder, SFTP and S3 channels delete its files).
 */
export function WithdrawAction({ story }: { story: Pick<Story, "libraryId" | "storyId"> }) {
  const { t } = useTranslation();
  const { message } = useFeedback();
  const queryClient = useQueryClient();
  const withdraw = useMutation({
    mutationFn: () => withdrawStory(story),
    // The confirmation closes as soon as the server answered; the lists reload behind it.
    onSuccess: (kills) => {
      message.success(t("publish.withdrawn", { count: kills.length }));
      void queryClient.invalidateQueries({ queryKey: storyKeys.all });
      void queryClient.invalidateQueries({ queryKey: deliveryKeys.all });
    },
  });
  return (
    <Popconfirm
      title={t("publish.withdrawConfirm")}
      okText={t("crud.ok")}
      cancelText={t("crud.cancel")}
      onConfirm={() => withdraw.mutateAsync().catch(() => undefined)}
    >
      <Button icon={<StopOutlined />} loading={withdraw.isPending} data-testid="story-withdraw">
        {t("stories.withdraw")}
      </Button>
    </Popconfirm>
  );
}
