export default {
  "crud.range": "第{{from}}-{{to}}条 共{{total}}条",
  "crud.add": "添加",
  "crud.edit": "编辑",
  "crud.delete": "删除",
  "crud.deleteConfirm": "确认删除？",
  "crud.deleted": "删除成功",
  "crud.saved": "操作成功",
  "crud.actions": "操作",
  "crud.keyword": "关键词",
  "crud.ok": "确定",
  "crud.cancel": "取消",
};
