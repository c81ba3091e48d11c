// The challenge page: mount the code editor; Reset puts the starter back (after asking);
// Ctrl+Enter runs the public tests, Ctrl+Shift+Enter submits (Cmd on a Mac); the custom-input
// section fills in its example when it opens; refusals (422) and a missing sandbox (503) show in place.
const ta = document.getElementById("code");
if (window.TDEditor) TDEditor.mount(ta);
document.getElementById("reset-btn").addEventListener("click", (e) => {
  if (confirm("Replace your code with the starter?")) TDEditor.setCode(ta, e.target.dataset.starter);
});

// Capture phase: the editor binds Mod-Enter (insert a blank line) on its own element, below us.
window.addEventListener("keydown", (ev) => {
  if (ev.key !== "Enter" || !(ev.ctrlKey || ev.metaKey) || ev.altKey) return;
  const btn = document.getElementById(ev.shiftKey ? "submit-btn" : "run-btn");
  if (!btn || btn.disabled) return;
  ev.preventDefault();
  ev.stopPropagation();
  btn.click();  // a click (not form.requestSubmit) so HTMX sends this button's mode
}, true);

document.addEventListener("htmx:afterSwap", (ev) => {
  if (ev.detail.target.id !== "custom-spec") return;
  const spec = ev.detail.target.querySelector("[data-example]");
  const box = document.getElementById("custom");
  if (spec && box && !box.value.trim()) box.value = spec.dataset.example;
});

document.addEventListener("htmx:beforeSwap", (ev) => {
  if (ev.detail.target.id === "report" && [413, 422, 429, 503].includes(ev.detail.xhr.status)) {
    ev.detail.shouldSwap = true;
    ev.detail.isError = false;
  }
});
