// Share the result and print the sheet, hooked by data attributes (the CSP allows no inline script).
//
// <button data-share="ID" data-copy-label="…" data-copied="…" data-copy-failed="…" hidden>
//   shares the text of the <textarea id="ID"> with the Web Share API where the browser has it,
//   else copies it to the clipboard; without JavaScript the button stays hidden and the textarea
//   shows the same text, ready to select. A [data-share-status] element says what happened.
// <button data-print hidden> opens the browser's print dialog.
(function () {
  "use strict";

  function say(button, text) {
    var status = button.parentNode.querySelector("[data-share-status]");
    if (status) status.textContent = text;
  }

  function selectText(area) {
    area.focus();
    area.select();
  }

  function copy(button, area) {
    var text = area.value;
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(text).then(
        function () { say(button, button.dataset.copied || ""); },
        function () { selectText(area); say(button, button.dataset.copyFailed || ""); }
      );
    } else {
      selectText(area);
      say(button, button.dataset.copyFailed || "");
    }
  }

  function share(button) {
    var area = document.getElementById(button.dataset.share);
    if (!area) return;
    if (navigator.share) {
      navigator.share({ text: area.value }).catch(function (error) {
        if (!error || error.name !== "AbortError") copy(button, area);  // not the user's "cancel"
      });
    } else {
      copy(button, area);
    }
  }

  function start() {
    document.querySelectorAll("button[data-share]").forEach(function (button) {
      if (!navigator.share && button.dataset.copyLabel) button.textContent = button.dataset.copyLabel;
      button.hidden = false;
      button.addEventListener("click", function () { share(button); });
    });
    document.querySelectorAll("button[data-print]").forEach(function (button) {
      button.hidden = false;
      button.addEventListener("click", function () { window.print(); });
    });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
