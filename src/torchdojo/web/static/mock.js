// Mock interviews: the ticking countdown, autosave, confirmations and keyboard shortcuts.
// Everything here is an enhancement: without JavaScript every button is a plain form post and
// the server enforces the deadline. The server's remaining time (data-remaining-ms) drives the
// clock; when it reaches zero the page saves what is typed and opens the report.
(() => {
  "use strict";

  // -- set-up page: show the chosen level's default duration ---------------------------------
  const setup = document.getElementById("mock-setup-form");
  if (setup) {
    const minutes = document.getElementById("minutes");
    const update = () => {
      const lv = setup.querySelector('input[name="level"]:checked');
      if (lv && minutes) minutes.placeholder = `${lv.dataset.minutes} (default)`;
    };
    setup.addEventListener("change", update);
    update();
  }

  const page = document.getElementById("mock-page");
  if (!page) return;

  const form = document.getElementById("answer-form");
  const ta = document.getElementById("answer");
  const status = document.getElementById("save-status");
  const confirmField = document.getElementById("confirm-field");
  const saveUrl = form.dataset.saveUrl;
  const pos = Number(page.dataset.pos);
  const n = Number(page.dataset.n);
  const mockId = page.dataset.mock;

  if (page.dataset.kind === "challenge" && window.TDEditor && ta && !ta.disabled) window.TDEditor.mount(ta);

  // -- autosave ---------------------------------------------------------------------------------
  let lastSaved = ta ? ta.value : "";
  let inflight = null;
  let again = false;
  let timer = null;
  let over = false;

  const dirty = () => ta && !ta.disabled && ta.value !== lastSaved;

  function markNav() {
    const cur = document.querySelector('#mock-nav a[aria-current="step"]');
    if (!cur || !ta || ta.disabled) return;
    const answered = lastSaved.trim() !== "";
    const flagged = cur.dataset.flagged === "true";
    cur.dataset.state = answered ? "answered" : "unanswered";
    cur.classList.toggle("answered", answered);
    cur.classList.toggle("unanswered", !answered);
    cur.setAttribute("aria-label", `Question ${pos}: ${cur.dataset.state}${flagged ? ", flagged" : ""}`);
    const mark = cur.querySelector(".nav-mark");
    if (mark) mark.textContent = (answered ? "✓" : "–") + (flagged ? "⚑" : "");
    const items = [...document.querySelectorAll("#mock-nav a.nav-item")];
    const count = (what) => document.querySelector(`#nav-counts [data-count="${what}"]`);
    const a = items.filter((x) => x.dataset.state === "answered").length;
    if (count("answered")) count("answered").textContent = a;
    if (count("unanswered")) count("unanswered").textContent = items.length - a;
  }

  async function post(url, data) {
    const res = await fetch(url, {
      method: "POST",
      headers: { "HX-Request": "true", "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(data),
    });
    const redirect = res.headers.get("HX-Redirect");
    if (redirect) {
      over = true;
      window.location.assign(redirect);
    }
    return res;
  }

  // Save now if the answer changed; resolves when the server has answered.
  async function save() {
    if (timer) { clearTimeout(timer); timer = null; }
    if (inflight) { again = true; return inflight; }
    if (!dirty()) return;
    const value = ta.value;
    inflight = (async () => {
      try {
        const res = await post(saveUrl, { answer: value });
        const html = await res.text();
        if (status && !over) status.innerHTML = html;
        if (res.ok) { lastSaved = value; markNav(); }
      } catch (e) {
        if (status) status.innerHTML = '<span class="save-status bad" role="alert">Not saved: the server did not answer. Retrying…</span>';
        timer = setTimeout(save, 3000);
      } finally {
        inflight = null;
      }
    })();
    await inflight;
    if (again) { again = false; return save(); }
  }

  function schedule() {
    if (timer) clearTimeout(timer);
    if (status && dirty()) status.innerHTML = '<span class="save-status muted">Editing…</span>';
    timer = setTimeout(save, 800);
  }

  if (ta) {
    ta.addEventListener("input", schedule);
    ta.addEventListener("blur", save);
    // The code editor keeps the textarea in sync without input events: watch its element, and
    // check for unsaved changes every second as a safety net.
    const ed = ta.editorView && ta.editorView.dom;
    if (ed) {
      ed.addEventListener("keyup", schedule);
      ed.addEventListener("paste", () => setTimeout(schedule, 0));
      ed.addEventListener("focusout", save);
    }
    setInterval(() => { if (dirty() && !timer && !inflight) schedule(); }, 1000);
  }

  // Leaving the page (closing the tab, following a link the script did not handle).
  window.addEventListener("pagehide", () => {
    if (dirty() && navigator.sendBeacon) {
      const data = new FormData();
      data.append("answer", ta.value);
      navigator.sendBeacon(saveUrl, data);
    }
    // stop this item's clock while the candidate is away (ignored if another item opened since)
    if (navigator.sendBeacon && form.dataset.leaveUrl) navigator.sendBeacon(form.dataset.leaveUrl);
  });

  // Navigator links: save first, then go (the GET tells the server which item is open).
  async function go(href) {
    await save();
    if (!over) window.location.assign(href);
  }
  document.addEventListener("click", (ev) => {
    const a = ev.target.closest("#mock-nav a.nav-item");
    if (!a || ev.ctrlKey || ev.metaKey || ev.shiftKey || ev.button !== 0) return;
    ev.preventDefault();
    go(a.href);
  });

  // -- buttons ----------------------------------------------------------------------------------
  const byId = (id) => document.getElementById(id);

  byId("save-btn")?.addEventListener("click", (ev) => {
    ev.preventDefault();
    if (!dirty() && status) status.innerHTML = '<span class="save-status muted">Nothing new to save</span>';
    save();
  });

  byId("prev-btn")?.addEventListener("click", (ev) => {
    ev.preventDefault();
    go(ev.currentTarget.dataset.href);
  });
  // Next: save, then ask the server whether the interviewer follows up on this answer first.
  byId("next-btn")?.addEventListener("click", async (ev) => {
    ev.preventDefault();
    let href = ev.currentTarget.dataset.href;
    await save();
    if (over) return;
    if (form.dataset.nextUrl) {
      try {
        const r = await fetch(form.dataset.nextUrl, { method: "POST" });
        if (r.ok) href = (await r.json()).url || href;
      } catch (e) { /* no follow-up: just move on */ }
    }
    window.location.assign(href);
  });

  byId("reveal-btn")?.addEventListener("click", (ev) => {
    if (ta && ta.value.trim() === "") {
      const ok = window.confirm("You have not answered this question yet.\n\nRevealing the model answer first is recorded in "
        + "your report and locks this question unanswered (it scores 0). Reveal anyway?");
      if (!ok) { ev.preventDefault(); return; }
      confirmField.value = "1";
    }
  });

  byId("finish-btn")?.addEventListener("click", (ev) => {
    const items = [...document.querySelectorAll("#mock-nav a.nav-item")];
    let open = items.filter((x) => x.dataset.state !== "answered" && Number(x.dataset.pos) !== pos).length;
    if (!ta || ta.value.trim() === "") open += 1;
    if (open > 0) {
      const ok = window.confirm(`${open} of ${n} questions are unanswered and will score 0. Finish the interview now?`);
      if (!ok) { ev.preventDefault(); return; }
    }
    confirmField.value = "1";
    over = true;
  });

  byId("run-btn")?.addEventListener("click", async (ev) => {
    ev.preventDefault();
    const btn = ev.currentTarget;
    const report = byId("report");
    const judging = byId("judging");
    btn.disabled = true;
    judging?.classList.add("htmx-request");
    try {
      const value = ta.value;
      const res = await post(`/mock/${mockId}/${pos}/run`, { answer: value });
      if (!over) {
        report.innerHTML = await res.text();
        if (res.ok) { lastSaved = value; markNav(); }
      }
    } catch (e) {
      report.innerHTML = '<div class="verdict-banner bad">The server did not answer; try again.</div>';
    } finally {
      btn.disabled = false;
      judging?.classList.remove("htmx-request");
    }
  });

  // -- countdowns -------------------------------------------------------------------------------
  const fmt = (ms) => {
    const s = Math.max(0, Math.ceil(ms / 1000));
    const h = Math.floor(s / 3600);
    const m = Math.floor((s % 3600) / 60);
    const ss = String(s % 60).padStart(2, "0");
    return h ? `${h}:${String(m).padStart(2, "0")}:${ss}` : `${m}:${ss}`;
  };
  const t0 = performance.now();
  const clock = byId("countdown");
  const itemClock = byId("item-countdown");
  const announce = byId("timer-announce");
  const total = clock ? Number(clock.dataset.remainingMs) : Infinity;
  const itemTotal = itemClock ? Number(itemClock.dataset.remainingMs) : null;
  const said = new Set();

  async function timeUp() {
    if (status) status.innerHTML = '<span class="save-status warn" role="alert">Time is up: saving and opening the report…</span>';
    try {
      await save(); // the server accepts a save a few seconds past the deadline
    } catch (e) { /* the report shows what was saved */ }
    if (over) return; // the server already sent us to the report
    over = true;
    if (ta) ta.disabled = true;
    window.location.assign(clock.dataset.reportUrl);
  }

  function tick() {
    const elapsed = performance.now() - t0;
    if (clock) {
      const left = total - elapsed;
      clock.textContent = fmt(left);
      clock.classList.toggle("low", left <= 60_000);
      for (const [ms, text] of [[300_000, "5 minutes left"], [60_000, "1 minute left"]]) {
        if (left <= ms && total > ms && !said.has(ms)) { said.add(ms); if (announce) announce.textContent = text; }
      }
      if (left <= 0) { clearInterval(ticker); timeUp(); return; }
    }
    if (itemClock && itemTotal !== null) {
      const left = itemTotal - elapsed;
      itemClock.textContent = left > 0 ? fmt(left) : "over time: move on";
      itemClock.classList.toggle("low", left <= 30_000);
    }
  }
  const ticker = setInterval(tick, 250);
  tick();

  // -- keyboard ---------------------------------------------------------------------------------
  // Alt+key only (plain keys never fire, so typing is safe); ev.code, so macOS Option works too.
  document.addEventListener("keydown", (ev) => {
    if (!ev.altKey || ev.ctrlKey || ev.metaKey) return;
    const code = ev.code || "";
    let handled = true;
    if (code === "KeyN") byId("next-btn")?.click();
    else if (code === "KeyP") byId("prev-btn")?.click();
    else if (code === "KeyF") byId("flag-btn")?.click();
    else if (code === "KeyS") byId("save-btn")?.click();
    else if (/^Digit[1-9]$/.test(code)) {
      const k = Number(code.slice(5));
      if (k <= n && k !== pos) go(`/mock/${mockId}/${k}`);
    } else handled = false;
    if (handled) ev.preventDefault();
  });
})();
