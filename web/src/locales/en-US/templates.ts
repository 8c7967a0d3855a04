export default {
  "templates.title": "Metadata templates",
  "templates.values": "Values",
  "templates.variables":
    "Text may use {date} (today), {user} (your name) and {library} (the library), filled in when the template is applied.",
  "templates.properties": "Custom properties",
  "templates.properties.hint":
    "By the property's key in the library (credit, copyrightNotice, usageTerms, city, country…)",
  "templates.properties.add": "Add a property",
  "templates.properties.key": "Key",
  "templates.properties.keyInvalid": "A key starts with a letter and holds letters, digits and _",
  "templates.properties.value": "Value",
  "templates.apply": "Apply a metadata template",
};
