// Practise answering: say so when the grader is still loading, and show a 422 (answer too long) in place.
document.addEventListener("htmx:beforeRequest", (ev) => {
  if (ev.target.id !== "practice-form") return;
  fetch("/mock/grader-status").then((r) => r.json()).then((s) => {
    document.getElementById("practice-loading").hidden = !["loading", "stopped"].includes(s.status);
  }).catch(() => {});
});
document.addEventListener("htmx:beforeSwap", (ev) => {
  if (ev.detail.target.id === "practice-result" && ev.detail.xhr.status === 422) {
    ev.detail.shouldSwap = true;
    ev.detail.isError = false;
  }
});
