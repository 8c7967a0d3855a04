/**
 * Names the database seeds in Chinese (libraries, the default story
 * properties), shown in the user's language while they keep their seeded
 * name: an administrator's rename wins. Issue 15: in en-US they stayed Chinese.
 */
import type { TFunction } from "i18next";

const SEEDED_LIBRARIES: Record<string, string> = {
  product: "成品库",
  material: "素材库",
  personal: "个人库",
  department: "部门库",
  publish: "发布库",
};

const SEEDED_PROPERTIES: Record<string, string> = {
  storyLevel: "稿件级别",
  copyright: "版权类型",
  location: "拍摄地点",
  shotDate: "拍摄日期",
  exclusive: "独家",
  shotList: "镜头说明",
  programme: "栏目",
  recordDate: "录制日期",
  transcript: "文字稿",
};

export function seededLibraryName(library: { id: string; name: string }, t: TFunction): string {
  return SEEDED_LIBRARIES[library.id] === library.name ? t(`seeded.library.${library.id}`) : library.name;
}

export function seededPropertyLabel(property: { name: string; label: string }, t: TFunction): string {
  return SEEDED_PROPERTIES[property.name] === property.label ? t(`seeded.property.${property.name}`) : property.label;
}
