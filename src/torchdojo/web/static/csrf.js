// Team mode (accounts): every state-changing request carries the session's CSRF token — htmx
// requests and fetch() in a header, sendBeacon() and plain forms in a "csrf_token" field. Loaded
// (not deferred) before every other script; the server refuses a request without the token (403).
(() => {
  const meta = document.querySelector('meta[name="csrf-token"]');
  if (!meta) return;
  const token = meta.content;
  const unsafe = (m) => !["GET", "HEAD", "OPTIONS"].includes((m || "GET").toUpperCase());
  const origFetch = window.fetch.bind(window);
  window.fetch = (input, init = {}) => {
    const method = init.method || (input instanceof Request ? input.method : "GET");
    if (unsafe(method)) {
      const headers = new Headers(init.headers || (input instanceof Request ? input.headers : undefined));
      headers.set("X-CSRF-Token", token);
      init = { ...init, headers };
    }
    return origFetch(input, init);
  };
  if (navigator.sendBeacon) {
    const beacon = navigator.sendBeacon.bind(navigator);
    navigator.sendBeacon = (url, data) => {
      if (data instanceof FormData || data instanceof URLSearchParams) data.set("csrf_token", token);
      else if (data == null) { data = new FormData(); data.set("csrf_token", token); }
      return beacon(url, data);
    };
  }
  const addField = (root) => {
    (root.querySelectorAll ? root.querySelectorAll("form") : []).forEach((f) => {
      if (f.method.toLowerCase() !== "post" || f.querySelector('input[name="csrf_token"]')) return;
      const i = document.createElement("input");
      i.type = "hidden"; i.name = "csrf_token"; i.value = token;
      f.appendChild(i);
    });
  };
  document.addEventListener("DOMContentLoaded", () => addField(document));
  document.addEventListener("htmx:load", (ev) => addField(ev.detail.elt.parentElement || document));
  document.addEventListener("htmx:configRequest", (ev) => { ev.detail.headers["X-CSRF-Token"] = token; });
  // a form submitted before DOMContentLoaded handlers ran, or built later by a script
  document.addEventListener("submit", (ev) => addField(ev.target.parentElement || document), true);
})();
