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
// The model answer stays folded until the learner has answered: open it once feedback arrives,
// and when a link points at it ("Now compare with the model answer").
document.addEventListener("htmx:afterSwap", (ev) => {
  if (ev.detail.target.id === "practice-result" && ev.detail.xhr.status === 200) {
    const model = document.getElementById("model-answer");
    if (model) model.open = true;
  }
});
document.addEventListener("click", (ev) => {
  const link = ev.target.closest('a[href="#model-answer"]');
  const model = document.getElementById("model-answer");
  if (link && model) model.open = true;
});
