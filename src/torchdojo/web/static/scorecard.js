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
  document.addEventListener("keydown", (ev) => {
    if (ev.target.closest("input, textarea, select") || ev.ctrlKey || ev.metaKey || ev.altKey) return;
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
  });
  document.addEventListener("htmx:afterSwap", show);
  document.addEventListener("DOMContentLoaded", show);
})();
