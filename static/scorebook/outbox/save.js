// The phone's outbox (issue 15): the hand form's Save. The hand is kept in the store first
// (store.js), then sent (sender.js); the form follows it to the sheet once it is recorded, or
// shows the form for the next hand while it waits on the phone, or its problems.
//
// A plain script, on every page after page.js; it defines nothing for others.
(function (global) {
  "use strict";

  const Store = global.ScorebookStore;
  const Sender = global.ScorebookSender;
  const Page = global.ScorebookOutboxPage;
  const STATUS = Sender.STATUS;
  const { say, words, uuid, deviceId } = Page;
  // Fields the outbox sets itself on every send, whatever the form holds.
  const OWN_FIELDS = ["csrfmiddlewaretoken", "client_id", "device_id", "confirm_repeat", "save"];

  // What became of entries that left the outbox, whoever sent them: the page that saved a
  // hand follows it to the sheet.
  const recorded = {}; // entry id -> the hand's number
  const declined = new Set(); // entry ids the scorekeeper did not record again
  Store.listen((news) => {
    if (news.type === STATUS.RECORDED) recorded[news.id] = news.number;
    if (news.type === "declined") declined.add(news.id);
  });

  function formFields(form) {
    const fields = [];
    new FormData(form).forEach((value, name) => {
      if (typeof value === "string" && !OWN_FIELDS.includes(name)) fields.push([name, value]);
    });
    return fields;
  }

  // What the pending row says of the hand: contract · declarer · partner · points.
  function summary(form) {
    const parts = [];
    ["contract", "declarer", "partner"].forEach((name) => {
      const input = form.querySelector(`input[name="${name}"]:checked`);
      const label = input && form.querySelector(`label[for="${input.id}"]`);
      if (label) parts.push(label.textContent.trim());
    });
    const points = form.querySelector('input[name="points"]');
    if (points && points.value) parts.push(points.value);
    return parts.join(" · ");
  }

  function sheetOf(form) {
    return form.dataset.outboxSheet;
  }

  // --- Keeping the hand ---------------------------------------------------------------------

  // A hand opened from the outbox to fix it keeps its id: if its first send did arrive, the
  // server says so instead of storing it twice (also when another tab sent it meanwhile).
  // Unless the server said that id is taken by other content: then it is entered anew.
  function clientIdFor(form, bound) {
    if (bound) return bound.status === STATUS.DIFFERS ? uuid() : bound.clientId;
    const field = form.querySelector("input[name=client_id]");
    return form.dataset.entry && field && field.value ? field.value : uuid();
  }

  // The entry this form saves again: the one it was opened from (its client_id, posted back
  // by the server) or saved to before, whether or not the page has said so yet.
  async function boundEntry(form) {
    if (form.dataset.entry) return Store.entry(Number(form.dataset.entry));
    const field = form.querySelector("input[name=client_id]");
    const mine = (item) => item.user === Sender.user() && field && item.clientId === field.value;
    const found = (await Store.entries()).find(mine);
    if (found) form.dataset.entry = found.id;
    return found;
  }

  async function keepHand(form) {
    const bound = await boundEntry(form);
    const item = bound || { created: Date.now() };
    Object.assign(item, {
      user: Sender.user(),
      userName: document.body.dataset.userName || "", // to say whose login it waits for
      url: form.dataset.outbox,
      sheet: sheetOf(form),
      fields: formFields(form),
      token: (form.querySelector("input[name=csrfmiddlewaretoken]") || {}).value || "",
      summary: summary(form),
      clientId: clientIdFor(form, bound),
      device: deviceId(),
      state: Store.WAITING,
      status: "",
      reason: "",
      problems: [],
      login: "",
      confirmRepeat: false,
    });
    item.id = await Store.put(item);
    form.dataset.entry = item.id;
    const field = form.querySelector("input[name=client_id]");
    if (field) field.value = item.clientId;
    if (navigator.storage && navigator.storage.persist) navigator.storage.persist().catch(() => {});
    return item;
  }

  function askForSync() {
    if (!navigator.serviceWorker) return;
    navigator.serviceWorker.getRegistration().then((registration) => {
      if (registration && registration.sync) return registration.sync.register(Sender.SYNC_TAG);
    }).catch(() => {}); // no Background Sync (Safari): the page's own triggers send it
  }

  // --- Where the form goes after a save -----------------------------------------------------

  // The sheet after a save, at its address (a reload shows the sheet), scrolled to what is
  // new: the hand just recorded, or the pending rows with what was said.
  function toSheet(sheet, show, said) {
    if (show) sessionStorage.setItem("scorebook-outbox-show", show);
    if (said) sessionStorage.setItem("scorebook-outbox-said", said);
    location.assign(sheet);
  }

  // A hand kept on the phone (not sent: no connection, or no login for it): the hand form
  // again, for the next hand, saying so (its heading, and the status by Save) and listing the
  // hands that wait. Not the sheet: the phone may have no copy of it without a connection, and
  // the offline page there would look as if the hand were lost. The form's own address: the
  // worker's copy, offline.
  function toNextForm() {
    sessionStorage.setItem("scorebook-outbox-kept", "1");
    location.assign(location.pathname);
  }

  // A hand the server found wrong is shown as the server draws it, each problem at its field:
  // the same fields posted the way they were before the outbox (htmx, answered with the form).
  // Nothing is stored by it (the server refuses them again), and the hand stays in the
  // outbox with its reason: the form that comes back is bound to it by its client_id.
  function showProblems(form) {
    form.dataset.viaHtmx = "1";
    form.querySelector("button[name=save]:not([hidden])").click();
  }

  // Pico draws a busy button with a spinner.
  function busy(form, on) {
    if (on) form.dataset.saving = "1";
    else delete form.dataset.saving;
    form.querySelectorAll("button[name=save]").forEach((button) => {
      button.setAttribute("aria-busy", String(on));
    });
  }

  // --- Save ---------------------------------------------------------------------------------

  // No IndexedDB here (a private window, a full disk): the hand is saved the old way, at once.
  function saveWithoutOutbox(form) {
    form.removeAttribute("data-outbox");
    busy(form, false);
    form.querySelector("button[name=save]:not([hidden])").click();
  }

  async function save(form) {
    if (form.dataset.saving) return; // a second tap while the first is kept and sent
    busy(form, true);
    let item;
    try {
      item = await keepHand(form);
    } catch (error) {
      return saveWithoutOutbox(form);
    }
    say(Sender.online() ? words().sending : words().kept);
    await Sender.sendAll();
    const after = await Store.entry(item.id);
    if (!after && recorded[item.id]) return toSheet(sheetOf(form), "hand-" + recorded[item.id]);
    if (!after && !declined.has(item.id)) return toSheet(sheetOf(form)); // sent by another tab
    busy(form, false);
    if (!after) { // "it is the same hand": not recorded again
      delete form.dataset.entry;
      return say(words().declined);
    }
    if (after.state === Store.WAITING) {
      askForSync();
      return toNextForm(); // its row says why it waits
    }
    if (after.status === STATUS.INVALID && global.htmx) return showProblems(form);
    say(after.reason, after.problems);
  }

  const outboxForm = (form) => {
    return Page.usable && form && form.matches("form[data-outbox]:not([data-via-htmx])");
  };

  document.addEventListener("click", (event) => {
    const button = event.target.closest && event.target.closest("button[name=save]");
    if (!button || !outboxForm(button.form)) return;
    // Before htmx sees the click (it listens on the button itself): the outbox saves the hand.
    event.preventDefault();
    event.stopPropagation();
    save(button.form);
  }, true);

  document.addEventListener("submit", (event) => {
    const form = event.target;
    const submitter = event.submitter;
    if (!outboxForm(form) || (submitter && submitter.name !== "save")) return;
    event.preventDefault();
    save(form);
  }, true);

  // Should anything still ask htmx to save the hand, the outbox has it already.
  document.addEventListener("htmx:beforeRequest", (event) => {
    const elt = event.detail.elt;
    if (elt && elt.name === "save" && outboxForm(elt.form)) event.preventDefault();
  });
})(self);
