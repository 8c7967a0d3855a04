export default {
  "app.title": "dams",
  "app.description": "Digital asset management for newsrooms",
  "app.footer": "dams · digital asset management for newsrooms",
  "app.loading": "Loading…",
};
