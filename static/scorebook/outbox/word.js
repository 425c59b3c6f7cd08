// The phone's outbox (issue 27, "Offline"): a player's word on a hand — "Correct" or
// "Something is wrong" — said through the outbox, like a hand (save.js). The word is kept in
// the store with its own client id, then sent (sender.js) after every hand entered before it
// and exactly once (the server stores a repeat of its client id once). Without a connection
// it waits on the phone, its form saying so, and goes when the connection is back. Refused
// because its hand changed meanwhile, the form shows the hand as it is now and asks again.
//
// The confirm forms are plain POST forms (templates/scorebook/hand_confirm.html,
// _confirm_mine.html): without JavaScript, or without IndexedDB, they post as they are.
// Those marked data-outbox-word (its address) go through here; a form that asks for a PIN is
// not marked: a PIN is never kept on the phone. Every empty device_id field on the page is
// filled with this phone's id, as the hand form's outbox sends it.
//
// A plain script, on every page after page.js; it defines nothing for others.
(function (global) {
  "use strict";

  const Store = global.ScorebookStore;
  const Sender = global.ScorebookSender;
  const Page = global.ScorebookOutboxPage;
  const STATUS = Sender.STATUS;
  // Fields the sender sets itself on every send.
  const OWN_FIELDS = ["csrfmiddlewaretoken", "client_id", "device_id"];

  const wordsOf = () => (document.getElementById("word-status") || { dataset: {} }).dataset;

  function fillDevice() {
    if (!Page.usable) return;
    document.querySelectorAll("input[name=device_id]").forEach((field) => {
      if (!field.value) field.value = Page.deviceId();
    });
  }

  function say(text) {
    const status = document.getElementById("word-status");
    if (!status) return;
    status.textContent = text || "";
    status.hidden = !text;
  }

  // What the server said of a word recorded, shown on the page that comes next as Django's
  // messages are.
  function sayOnNextPage() {
    const said = sessionStorage.getItem("scorebook-word-said");
    sessionStorage.removeItem("scorebook-word-said");
    const main = document.querySelector("main");
    if (!said || !main) return;
    const item = document.createElement("li");
    item.className = "message success";
    item.textContent = said;
    const list = document.createElement("ul");
    list.className = "messages";
    list.append(item);
    const box = document.createElement("div");
    box.setAttribute("role", "status");
    box.append(list);
    main.prepend(box);
  }

  function fieldsOf(form, submitter) {
    const fields = [];
    new FormData(form, submitter).forEach((value, name) => {
      if (typeof value === "string" && !OWN_FIELDS.includes(name)) fields.push([name, value]);
    });
    return fields;
  }

  async function keepWord(form, submitter) {
    const head = [form.dataset.outboxHand, submitter.textContent.trim()].join(" · ") + ":";
    const item = {
      kind: Store.WORD,
      created: Date.now(),
      user: Sender.user(),
      userName: document.body.dataset.userName || "",
      url: form.dataset.outboxWord,
      sheet: form.dataset.outboxSheet,
      fields: fieldsOf(form, submitter),
      token: (form.querySelector("input[name=csrfmiddlewaretoken]") || {}).value || "",
      head,
      summary: head + " " + (form.dataset.outboxLine || ""),
      clientId: Page.uuid(),
      device: Page.deviceId(),
      state: Store.WAITING,
      status: "",
      reason: "",
      problems: [],
      login: "",
    };
    item.id = await Store.put(item);
    Store.changed({ type: "kept", id: item.id, sheet: item.sheet });
    return item;
  }

  // The forms whose word waits on this phone say so instead of asking again.
  async function markKept() {
    const forms = document.querySelectorAll("form[data-outbox-word]");
    if (!forms.length || !Page.usable) return;
    const user = Sender.user();
    const kept = (await Store.entries()).filter((item) => {
      return item.kind === Store.WORD && item.user === user && item.state === Store.WAITING;
    });
    forms.forEach((form) => {
      const waits = kept.some((item) => item.url === form.dataset.outboxWord);
      form.querySelectorAll("button, a[role=button], details").forEach((element) => {
        element.hidden = waits;
      });
      let note = form.querySelector(".word-kept");
      if (waits && !note) {
        note = document.createElement("small");
        note.className = "word-kept";
        note.textContent = wordsOf().kept || "";
        form.append(note);
      }
      if (!waits && note) note.remove();
    });
  }

  // Refused: nothing was stored, and the form asks again. A hand changed meanwhile is shown as
  // it is now, and the form says the word of that version.
  function askAgain(form, after) {
    if (after.now) {
      form.querySelector("input[name=version]").value = after.now.version;
      form.dataset.outboxLine = after.now.line;
      const line = document.querySelector(form.dataset.outboxShows || "none");
      if (line) line.textContent = after.now.line;
    }
    say(after.reason);
  }

  function askForSync() {
    if (!navigator.serviceWorker) return;
    navigator.serviceWorker.getRegistration().then((registration) => {
      if (registration && registration.sync) return registration.sync.register(Sender.SYNC_TAG);
    }).catch(() => {}); // no Background Sync: the page's own triggers send it
  }

  // The next page: the one the form goes back to, else this one again, with the word's state.
  const recorded = {}; // entry id -> what the server said
  Store.listen((news) => {
    if (news.type === STATUS.RECORDED && news.kind === Store.WORD) recorded[news.id] = news.message;
    if (news.type !== "sending") markKept();
  });

  async function sayWord(form, submitter) {
    if (form.dataset.saying) return; // a second tap while the first is kept and sent
    form.dataset.saying = "1";
    let item;
    try {
      item = await keepWord(form, submitter);
    } catch (error) {
      delete form.dataset.saying;
      form.removeAttribute("data-outbox-word"); // no store here: the form posts as it is
      return form.requestSubmit(submitter);
    }
    await Sender.sendAll();
    const after = await Store.entry(item.id);
    delete form.dataset.saying;
    if (!after) {
      if (recorded[item.id]) sessionStorage.setItem("scorebook-word-said", recorded[item.id]);
      return location.assign(form.dataset.outboxBack || location.pathname + location.search);
    }
    if (after.state === Store.WAITING) {
      askForSync();
      return say(after.reason || wordsOf().kept);
    }
    await Store.remove(item.id);
    Store.changed({ type: "discarded", id: item.id, sheet: item.sheet });
    askAgain(form, after);
  }

  document.addEventListener("submit", (event) => {
    const form = event.target;
    if (!Page.usable || !form.matches("form[data-outbox-word]")) return;
    // Before offline.js (which says "this needs the connection"): the outbox keeps the word.
    event.preventDefault();
    sayWord(form, event.submitter || form.querySelector("button[name=answer]"));
  }, true);

  function start() {
    fillDevice();
    sayOnNextPage();
    markKept();
  }

  document.addEventListener("htmx:afterSettle", () => {
    fillDevice();
    markKept();
  });
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})(self);
