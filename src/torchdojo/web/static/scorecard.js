// Self-review with the keyboard: j/k move between scorecard lines, 1-4 mark the current line
// (then move on), Enter accepts the machine's proposals for the rest and finishes.
(() => {
  let cur = 0;
  const card = () => document.querySelector(".scorecard[data-status='open']");
  const lines = () => { const c = card(); return c ? [...c.querySelectorAll(".sc-line")] : []; };
  function show() {
    const ls = lines();
    if (!ls.length) return;
    cur = Math.max(0, Math.min(cur, ls.length - 1));
    ls.forEach((l, i) => l.classList.toggle("current", i === cur));
    ls[cur].scrollIntoView({ block: "nearest" });
  }
  // Keys typed while a mark is being saved wait until the new scorecard is in place (a click on
  // the old one, or on one HTMX has not wired yet, would be lost or sent as a plain form).
  let busy = 0;
  const queue = [];
  document.addEventListener("htmx:beforeRequest", () => { busy += 1; });
  // after the request, HTMX swaps and then wires the new content (its settle delay is 20 ms)
  document.addEventListener("htmx:afterRequest", () => {
    setTimeout(() => { busy = Math.max(0, busy - 1); show(); drain(); }, 80);
  });
  function drain() { while (!busy && queue.length) handle(queue.shift()); }
  document.addEventListener("keydown", (ev) => {
    if (ev.target.closest("input, textarea, select") || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    if (!/^[jk1-4]$|^Enter$/.test(ev.key) || !document.querySelector(".scorecard, #review-done")) return;
    // Enter on another focused control (a link, the practice form's button) keeps its own meaning.
    if (ev.key === "Enter" && ev.target !== document.body && !ev.target.closest(".scorecard, .mock-review")) return;
    ev.preventDefault();
    if (busy) queue.push(ev.key); else handle(ev.key);
  });
  function handle(key) {
    const ev = { key, preventDefault() {} };
    const ls = lines();
    if (!ls.length) {
      const done = document.getElementById("review-done");
      if (done && ev.key === "Enter") { ev.preventDefault(); done.click(); }
      return;
    }
    if (ev.key === "j") { cur += 1; show(); ev.preventDefault(); }
    else if (ev.key === "k") { cur -= 1; show(); ev.preventDefault(); }
    else if (/^[1-4]$/.test(ev.key)) {
      const b = ls[cur] && ls[cur].querySelector(`[data-mark-key="${ev.key}"]`);
      if (b) { ev.preventDefault(); cur += 1; b.click(); }
    } else if (ev.key === "Enter") {
      const b = card().querySelector("[data-accept]");
      if (b) { ev.preventDefault(); b.click(); }
    }
  }
  document.addEventListener("htmx:afterSwap", show);
  document.addEventListener("DOMContentLoaded", show);
})();
