// The hand form's own script.
// - The ± button beside an amount that may be negative (an adjustment): iOS's decimal keypad
//   has no minus key, so a tap here flips the amount's sign. The buttons are hidden in the HTML
//   and shown here: without JavaScript the keyboard has to do.
// - A contract chosen before the page's scripts ran (a quick tap on a slow phone) was chosen
//   with nobody listening: its fields are drawn as soon as htmx is there.
// - What is typed or chosen while a contract's fields are on their way is kept: the server drew
//   them from what the form held when it asked, and they would replace what came since.
(function () {
  "use strict";

  function reveal(root) {
    root.querySelectorAll("button[data-sign-of][hidden]").forEach(function (button) {
      button.hidden = false;
    });
  }

  // --- A contract chosen before htmx listened -------------------------------------------------

  var redrawn = false; // the fields were asked for since the page came

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
    // A contract chosen once htmx listened asked for its fields itself.
    if (redrawn) return;
    document.querySelectorAll(".redraw").forEach(function (redraw) {
      var fields = redraw.querySelectorAll("input, select");
      if (Array.from(fields).some(changedSinceLoad)) window.htmx.trigger(redraw, "change");
    });
  }

  // --- What comes while the fields are on their way -------------------------------------------

  var askedWith = null; // the form's values when its fields were asked for
  var meanwhile = null; // { values: those changed since, focused: the field being typed in }

  function values(form) {
    var held = {};
    new FormData(form).forEach(function (value, name) {
      (held[name] = held[name] || []).push(String(value));
    });
    return held;
  }

  function changedSince(before, now) {
    var changed = {};
    Object.keys(before).concat(Object.keys(now)).forEach(function (name) {
      if ((before[name] || []).join("\n") !== (now[name] || []).join("\n")) {
        changed[name] = now[name] || [];
      }
    });
    return changed;
  }

  // A hand's field is one input, or a group of radios or checkboxes sharing its name.
  function put(field, values) {
    if (field.type === "checkbox" || field.type === "radio") {
      field.checked = values.indexOf(field.value) !== -1;
    } else if (field.tagName === "SELECT") {
      Array.from(field.options).forEach(function (option) {
        option.selected = values.indexOf(option.value) !== -1;
      });
    } else {
      field.value = values[0] || "";
    }
  }

  function keepWhatCameMeanwhile(fields) {
    var kept = meanwhile;
    meanwhile = null;
    if (!kept) return;
    var last = null;
    fields.querySelectorAll("input, select, textarea").forEach(function (field) {
      if (!Object.prototype.hasOwnProperty.call(kept.values, field.name)) return;
      put(field, kept.values[field.name]);
      last = field;
    });
    var focused = kept.focused && fields.querySelector("[name='" + CSS.escape(kept.focused) + "']");
    if (focused) focused.focus();
    // The live score follows (the form's hx-trigger listens for change).
    if (last) last.dispatchEvent(new Event("change", { bubbles: true }));
  }

  function isRedraw(element) {
    return Boolean(element.matches && element.matches(".redraw"));
  }

  document.addEventListener("htmx:beforeRequest", function (event) {
    if (!isRedraw(event.detail.elt)) return;
    redrawn = true;
    askedWith = values(event.detail.elt.closest("form"));
  });
  document.addEventListener("htmx:beforeSwap", function (event) {
    var redraw = event.detail.requestConfig.elt; // the element that asked (detail.elt: its target)
    if (!isRedraw(redraw) || !askedWith) return;
    var focused = document.activeElement;
    meanwhile = {
      values: changedSince(askedWith, values(redraw.closest("form"))),
      focused: focused && event.detail.target.contains(focused) ? focused.name : "",
    };
    askedWith = null;
  });

  // --- Loading ---------------------------------------------------------------------------------

  document.addEventListener("DOMContentLoaded", function () { reveal(document); });
  // The form's fields are redrawn by htmx when the contract changes; the page itself is htmx's
  // first load, once it listens to the form.
  document.addEventListener("htmx:load", function (event) {
    reveal(event.target);
    if (event.target === document.body) setTimeout(redrawEarlyChoices);
    if (event.target.id === "hand-fields") keepWhatCameMeanwhile(event.target);
  });

  // --- The ± button ----------------------------------------------------------------------------

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
