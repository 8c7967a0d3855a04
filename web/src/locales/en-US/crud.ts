export default {
  "crud.range": "{{from}}-{{to}} of {{total}} items",
  "crud.add": "Add",
  "crud.edit": "Edit",
  "crud.delete": "Delete",
  "crud.deleteConfirm": "Delete this item?",
  "crud.deleted": "Deleted",
  "crud.saved": "Done",
  "crud.actions": "Actions",
  "crud.keyword": "Keyword",
  "crud.ok": "OK",
  "crud.cancel": "Cancel",
};
