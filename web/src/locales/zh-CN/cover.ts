export default {
  // 封面裁剪（规格第 2 节“封面裁剪”；issue 7）。
  "cover.action": "封面",
  "cover.title": "设置封面",
  "cover.ratioCaption": "封面图片比例：{{ratio}}",
  "cover.confirm": "确定",
  "cover.saved": "封面已设置",
  "cover.sourceAlt": "待裁剪的图片",
  "cover.source.current": "当前封面",
  "cover.source.frame": "视频画面",
  "cover.source.file": "图片文件",
  "cover.takeFrame": "使用此画面",
  "cover.otherFrame": "重新选择画面",
  "cover.pickFile": "选择图片",
  "cover.notImage": "请选择图片文件。",
};
