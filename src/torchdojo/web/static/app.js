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
