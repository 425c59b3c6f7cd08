// A phone at a table without signal (issue 15), on every page:
// - registers the service worker (sw.js) and gives it the page's static files to keep;
// - shows the banner (#offline-banner, templates/base.html) while the browser is offline;
// - the hand form's live score says it will be computed when back online, instead of a stale
//   score or stale problems, and is computed again when the connection is back;
// - no other request of htmx is sent while offline (the sheet's poll, an edit), nor a form
//   posted without htmx (a void): the banner says the connection is needed, instead of the
//   browser's page "no internet";
// - a hand form shown again by Back (the browser's back-forward cache) is loaded anew: a fresh
//   form, never the hand just saved with its score. htmx keeps no copies of pages at all
//   (historyCacheSize 0 in base.html): Back after an htmx swap loads the page again;
// - logging out drops the worker's copies of pages (the outbox stays: its hands are sent when
//   their user logs in again); without a connection too: the worker keeps the logout, shows
//   every page logged out, and sends it first when the connection is back.
(function () {
  "use strict";

  const script = document.currentScript;
  const online = () => navigator.onLine !== false;

  // --- The worker ---------------------------------------------------------------------------

  function staticFiles() {
    const named = document.querySelectorAll('link[href^="/static/"], script[src^="/static/"]');
    return Array.from(named, (element) => element.getAttribute(element.src ? "src" : "href"));
  }

  // The worker that answers this page's requests (none before it took over, or at all).
  const controller = () => navigator.serviceWorker && navigator.serviceWorker.controller;

  function tellWorker(worker) {
    worker.postMessage({ type: "shell", urls: staticFiles() });
    // The first page came before the worker: it is fetched again for the worker's copy.
    if (!navigator.serviceWorker.controller) {
      worker.postMessage({ type: "keep", url: location.pathname });
    }
  }

  function register() {
    if (!("serviceWorker" in navigator) || !script.dataset.worker) return;
    // The worker names the outbox's scripts it imports itself (its view writes them in), so a
    // new outbox is a new worker.
    navigator.serviceWorker.register(script.dataset.worker, { scope: "/" })
      .then(() => navigator.serviceWorker.ready)
      .then((registration) => tellWorker(registration.active))
      .catch(() => {}); // no worker (a private window): pages still work online
  }

  // --- The banner and the live score ------------------------------------------------------------

  const banner = () => document.getElementById("offline-banner");
  let skippedRedraw = null; // the contract's fields, to draw when the connection is back

  function showBanner() {
    const element = banner();
    if (!element) return;
    element.hidden = online();
    if (online()) element.querySelector(".needs-connection").hidden = true;
  }

  function note(text, className) {
    const result = document.getElementById("hand-result");
    if (!result) return;
    const element = document.createElement("small");
    element.className = className;
    element.textContent = text;
    result.replaceChildren(element);
  }

  // Said where the scorekeeper looks: beside a hand form's Save, else in the banner.
  function needsConnection(form) {
    const element = banner();
    if (!element) return;
    const words = element.querySelector(".needs-connection");
    if (form && document.getElementById("hand-result")) {
      return note(words.textContent, "needs-connection");
    }
    words.hidden = false;
    element.scrollIntoView({ block: "nearest" });
  }

  function scoreLater(form, redraw) {
    note(redraw ? form.dataset.offlineFields : form.dataset.offlineScore, "muted offline-score");
  }

  function scoreNow() {
    const form = document.querySelector("form.hand-form");
    const waiting = document.querySelector("#hand-result :is(.offline-score, .needs-connection)");
    if (!form || !window.htmx || !waiting) return;
    const redraw = skippedRedraw && document.contains(skippedRedraw);
    window.htmx.trigger(redraw ? skippedRedraw : form, "change");
    skippedRedraw = null;
  }

  document.addEventListener("htmx:beforeRequest", (event) => {
    if (online() || event.defaultPrevented) return;
    event.preventDefault(); // it would fail, and stale answers are worse than none
    const elt = event.detail.elt;
    const form = elt.closest && elt.closest("form.hand-form");
    const verb = event.detail.requestConfig && event.detail.requestConfig.verb;
    if (form && elt.name !== "save") {
      if (elt.matches(".redraw")) skippedRedraw = elt;
      scoreLater(form, Boolean(skippedRedraw) || elt.name === "_count");
    } else if (verb && verb !== "get") {
      needsConnection(form); // an edit, a void
    }
  });

  // The browser thought it was online but the request found no network.
  document.addEventListener("htmx:sendError", (event) => {
    const elt = event.detail.elt;
    const form = elt.closest && elt.closest("form.hand-form");
    if (form && elt.name === "save") needsConnection(form);
    else if (form) scoreLater(form, false);
  });

  window.addEventListener("offline", showBanner);
  window.addEventListener("online", () => {
    if (controller()) controller().postMessage({ type: "online" }); // a logout made offline first
    showBanner();
    scoreNow();
  });

  // --- Back, and logging out ----------------------------------------------------------------

  window.addEventListener("pageshow", (event) => {
    // Not reload(): the form may have come from a POST (a hand opened from the outbox).
    if (event.persisted && document.querySelector("form.hand-form")) {
      location.replace(location.pathname + location.search);
    }
  });

  document.addEventListener("submit", (event) => {
    const form = event.target;
    const logout = form.matches("form[data-logout]");
    if (logout) sessionStorage.removeItem("htmx-history-cache"); // left from before it was 0
    if (!online() && !event.defaultPrevented && form.method === "post") {
      event.preventDefault(); // the outbox, which saves new hands offline, had its turn first
      // A phone handed over at a table without signal: the worker logs out now, the server
      // hears it first thing when the connection is back.
      const token = form.elements.csrfmiddlewaretoken;
      if (logout && controller() && token) {
        const kept = { type: "logout", offline: true, action: form.action, token: token.value };
        controller().postMessage(kept);
      } else {
        needsConnection(form.closest(".hand-form"));
      }
      return;
    }
    if (logout && controller()) controller().postMessage({ type: "logout" });
  });

  function start() {
    showBanner();
    register();
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
