// Interviewer mode: the print button, the confirmation before finishing, and errors from a mark
// (e.g. 409 once the interview is finished) shown beside the scorecard. Everything else is
// plain forms (HTMX swaps a question's scorecard in place when it is present).
(() => {
  "use strict";
  document.addEventListener("click", (ev) => {
    if (ev.target.closest("[data-print]")) { ev.preventDefault(); window.print(); }
  });
  document.addEventListener("submit", (ev) => {
    const form = ev.target.closest("form[data-confirm]");
    if (form && !window.confirm(form.dataset.confirm)) ev.preventDefault();
  });
  document.body.addEventListener("htmx:afterRequest", (ev) => {
    const el = ev.detail.elt;
    if (el.classList && el.classList.contains("iv-note") && ev.detail.successful) el.classList.add("saved");
  });
  document.body.addEventListener("htmx:responseError", (ev) => {
    const card = ev.detail.elt.closest(".iv-card, #overall-slot");
    const box = card && card.querySelector(".iv-error");
    const text = ev.detail.xhr.responseText || "";
    const msg = new DOMParser().parseFromString(text, "text/html").body.textContent.trim();
    if (box) { box.textContent = msg || `Not saved (HTTP ${ev.detail.xhr.status}).`; box.classList.add("form-error"); }
  });
})();
