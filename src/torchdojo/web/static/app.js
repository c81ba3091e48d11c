// Keyboard shortcuts for the review page: space reveals, 1-4 rate, u or Ctrl+Z undoes, - buries,
// ! suspends. Nothing else needs JS.
document.addEventListener("keydown", (ev) => {
  if (ev.target.closest("input, textarea, select")) return;
  const undo = (ev.ctrlKey || ev.metaKey) && !ev.altKey && ev.key.toLowerCase() === "z";
  if (!undo && (ev.ctrlKey || ev.metaKey || ev.altKey)) return;
  const el = document.querySelector(`#card-slot [data-key="${undo ? "u" : ev.key}"]`);
  if (el) { ev.preventDefault(); el.click(); }
});

// Filters that apply as soon as they change (no inline handlers: the CSP allows no inline script).
document.addEventListener("change", (ev) => {
  if (ev.target.matches("select[data-autosubmit]") && ev.target.form) ev.target.form.submit();
});

// "/" focuses the page's search box (the list's own search where there is one, else the header's),
// as on GitHub; Escape leaves a search box. Never while typing in a field or the code editor.
document.addEventListener("keydown", (ev) => {
  if (ev.key === "Escape" && ev.target.matches && ev.target.matches("input[type=search]")) {
    ev.target.blur();
    return;
  }
  if (ev.key !== "/" || ev.ctrlKey || ev.metaKey || ev.altKey || ev.defaultPrevented) return;
  const t = ev.target;
  if (t.closest && t.closest("input, textarea, select, [contenteditable], .cm-editor")) return;
  const box = document.querySelector("main input[type=search]") || document.querySelector(".quicksearch input");
  if (!box) return;
  ev.preventDefault();
  box.focus();
  box.select();
});

// Team mode: a queued submission's banner names its event stream; its verdict replaces the banner
// (and the report around it) when a judge worker has written it. EventSource reconnects by itself.
function watchVerdicts(root) {
  root.querySelectorAll("[data-events]").forEach((banner) => {
    if (banner.dataset.watching) return;
    banner.dataset.watching = "1";
    const box = banner.parentElement;
    const es = new EventSource(banner.dataset.events);
    es.addEventListener("status", (ev) => {
      const strong = banner.querySelector("strong");
      if (strong && ev.data === "judging") strong.textContent = "Judging";
    });
    es.addEventListener("verdict", (ev) => {
      es.close();
      box.innerHTML = ev.data;
    });
  });
}
document.addEventListener("DOMContentLoaded", () => watchVerdicts(document));
document.addEventListener("htmx:afterSwap", (ev) => watchVerdicts(ev.detail.target));
