// The hand form's own script.
// - The ± button beside an amount that may be negative (an adjustment): iOS's decimal keypad
//   has no minus key, so a tap here flips the amount's sign. The buttons are hidden in the HTML
//   and shown here: without JavaScript the keyboard has to do.
// - A contract chosen before the page's scripts ran (a quick tap on a slow phone) was chosen
//   with nobody listening: its fields are drawn as soon as htmx is there.
(function () {
  "use strict";

  function reveal(root) {
    root.querySelectorAll("button[data-sign-of][hidden]").forEach(function (button) {
      button.hidden = false;
    });
  }

  function changedSinceLoad(field) {
    if (field.type === "checkbox" || field.type === "radio") {
      return field.checked !== field.defaultChecked;
    }
    if (field.tagName === "SELECT") {
      return Array.from(field.options).some(function (option) {
        return option.selected !== option.defaultSelected;
      });
    }
    return field.value !== field.defaultValue;
  }

  function redrawEarlyChoices() {
    document.querySelectorAll(".redraw").forEach(function (redraw) {
      var fields = redraw.querySelectorAll("input, select");
      if (Array.from(fields).some(changedSinceLoad)) window.htmx.trigger(redraw, "change");
    });
  }

  document.addEventListener("DOMContentLoaded", function () { reveal(document); });
  // The form's fields are redrawn by htmx when the contract changes; the page itself is htmx's
  // first load, once it listens to the form.
  document.addEventListener("htmx:load", function (event) {
    reveal(event.target);
    if (event.target === document.body) setTimeout(redrawEarlyChoices);
  });

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
