import { PictureOutlined } from "@ant-design/icons";

/**
 * A composite member's thumbnail in a fixed box (the member list, the member placed in the text, the picker),
 * or a picture icon while it has none. A span, so it may stand inside a checkbox's label.
 */
export function MemberThumb({
  url,
  alt,
  width,
  height,
  iconSize,
}: {
  url: string | null | undefined;
  alt: string;
  width: number;
  height: number;
  iconSize?: number;
}) {
  return (
    <span
      style={{
        width,
        height,
        flex: "none",
        borderRadius: 4,
        overflow: "hidden",
        background: "#f0f0f0",
        display: "grid",
        placeItems: "center",
      }}
    >
      {url ? (
        <img src={url} alt={alt} style={{ width: "100%", height: "100%", objectFit: "cover" }} />
      ) : (
        <PictureOutlined style={{ fontSize: iconSize, color: "#bfbfbf" }} />
      )}
    </span>
  );
}
