// Keep the screen on while a sheet or a hand form is open (issue 15): a phone lying on the
// table between hands should not lock itself. The switch (templates/scorebook/_keep_awake.html,
// hidden without JavaScript) shows only where the browser has the Screen Wake Lock API; its
// choice is remembered on this phone. The browser drops the lock when the page is hidden, so
// it is asked for again when the page is shown.
(function () {
  "use strict";

  const KEY = "scorebook-keep-awake";
  let lock = null;

  const wanted = () => {
    const box = document.querySelector("input[data-keep-awake]");
    return Boolean(box && box.checked && navigator.wakeLock);
  };

  function acquire() {
    if (lock || !wanted() || document.visibilityState !== "visible") return;
    navigator.wakeLock.request("screen").then((sentinel) => {
      lock = sentinel;
      sentinel.addEventListener("release", () => { if (lock === sentinel) lock = null; });
      if (!wanted()) release(); // switched off while the lock was on its way
    }).catch(() => {}); // refused (battery saver, a hidden page): the screen may lock
  }

  function release() {
    const sentinel = lock;
    lock = null;
    if (sentinel) sentinel.release().catch(() => {});
  }

  function start() {
    const box = document.querySelector("input[data-keep-awake]");
    if (!box) return release(); // a page without a sheet or a hand form
    if (!navigator.wakeLock || box.dataset.bound) return acquire();
    box.dataset.bound = "1";
    box.checked = localStorage.getItem(KEY) !== "off";
    box.closest("[hidden]").hidden = false;
    box.addEventListener("change", () => {
      localStorage.setItem(KEY, box.checked ? "on" : "off");
      if (box.checked) acquire();
      else release();
    });
    acquire();
  }

  document.addEventListener("visibilitychange", acquire);
  // A save answered by a whole page (htmx swaps the body): the switch of the new page.
  document.addEventListener("htmx:afterSettle", start);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
