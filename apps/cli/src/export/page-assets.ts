/** The page's styles: a dark terminal look, the theme's colours as classes. */
export const PAGE_STYLE = `
:root { color-scheme: dark; --bg: #14161a; --panel: #1c1f24; --text: #d8dee9; --muted: #7d8590; --accent: #56b6c2;
  --success: #98c379; --warning: #e5c07b; --error: #e06c75; }
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--text); font: 14px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; }
main { max-width: 1100px; margin: 0 auto; padding: 24px 20px 64px; }
header h1 { font-size: 18px; margin: 0 0 4px; }
header p, .meta { color: var(--muted); margin: 0; font-size: 13px; }
.toolbar { margin: 12px 0 20px; display: flex; gap: 8px; }
button { background: var(--panel); color: var(--text); border: 1px solid #30363d; border-radius: 6px; padding: 4px 10px; cursor: pointer; }
pre, code { font: 13px/1.45 ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; }
pre { white-space: pre-wrap; word-break: break-word; margin: 0; }
.user { border-left: 3px solid var(--accent); padding: 6px 12px; margin: 20px 0 10px; background: var(--panel); border-radius: 0 6px 6px 0; }
.user pre { font: inherit; font-weight: 600; }
.assistant { margin: 10px 0; }
.assistant .text p { margin: 6px 0; }
.assistant .text pre { background: var(--panel); padding: 8px 10px; border-radius: 6px; margin: 6px 0; }
.assistant code { background: var(--panel); padding: 0 4px; border-radius: 4px; }
details.thinking { color: var(--muted); font-style: italic; margin: 6px 0; }
details.thinking summary { cursor: pointer; font-style: normal; }
details.tool { background: var(--panel); border: 1px solid #30363d; border-radius: 6px; margin: 8px 0; }
details.tool.error { border-color: var(--error); }
details.tool > summary { cursor: pointer; padding: 6px 10px; list-style: none; display: flex; gap: 8px; align-items: baseline; }
details.tool > summary::-webkit-details-marker { display: none; }
details.tool > summary .name { font-weight: 600; }
details.tool > summary .status { margin-left: auto; white-space: nowrap; }
details.tool .frame { padding: 4px 10px 8px; border-top: 1px solid #30363d; }
details.tool .args { color: var(--muted); padding: 0 10px 8px; }
details.tool img { max-width: 100%; display: block; margin: 6px 10px; border-radius: 4px; }
.usage { color: var(--muted); font-size: 12px; margin: 2px 0 12px; }
.tools-change { color: var(--warning); font-size: 13px; margin: 10px 0; }
.model-change { color: var(--accent); font-size: 13px; margin: 10px 0; }
.rewound { opacity: 0.55; border-left: 3px dashed var(--warning); padding-left: 10px; }
.rewind-mark { color: var(--warning); font-size: 13px; margin: 10px 0; border-top: 1px dashed var(--warning); padding-top: 6px; }
.model-error { color: var(--error); }
.s-bold { font-weight: 700; } .s-dim { opacity: .7; } .s-italic { font-style: italic; } .s-accent { color: var(--accent); }
.s-success { color: var(--success); } .s-warning { color: var(--warning); } .s-error { color: var(--error); } .s-muted { color: var(--muted); }
`;

/** Expand / collapse every tool call. No network, no eval. */
export const PAGE_SCRIPT = `
document.addEventListener("click", function (event) {
  var button = event.target.closest("button[data-open]");
  if (!button) return;
  var open = button.getAttribute("data-open") === "true";
  document.querySelectorAll("details.tool").forEach(function (element) { element.open = open; });
});
`;
