// The ± button beside an amount that may be negative (an adjustment): iOS's decimal keypad
// has no minus key, so a tap here flips the amount's sign. The buttons are hidden in the HTML
// and shown here: without JavaScript the keyboard has to do.
(function () {
  "use strict";

  function reveal(root) {
    root.querySelectorAll("button[data-sign-of][hidden]").forEach(function (button) {
      button.hidden = false;
    });
  }

  document.addEventListener("DOMContentLoaded", function () { reveal(document); });
  // The form's fields are redrawn by htmx when the contract changes.
  document.addEventListener("htmx:load", function (event) { reveal(event.target); });

  document.addEventListener("click", function (event) {
    var button = event.target.closest("button[data-sign-of]");
    if (!button) return;
    var input = document.getElementById(button.dataset.signOf);
    if (!input) return;
    var value = input.value.trim();
    // Either minus the parser reads (the ASCII one, U+2212), or a plus, gives way to the other.
    input.value = /^[-\u2212]/.test(value) ? value.slice(1) : "-" + value.replace(/^\+/, "");
    // The live score follows what was typed (the form's hx-trigger listens for input).
    input.dispatchEvent(new Event("input", { bubbles: true }));
    input.focus();
  });
})();
