// The phone's outbox (issue 15) on a page: what it says (#outbox, templates/scorebook/
// _outbox.html, whose data attributes hold every word it says, in the page's language), the
// rows of the hands that wait (the sheet's, and the hand form's #outbox-rows) with their
// buttons, the hand form's heading while hands wait, and when the page sends (now, when the
// connection is back, every 20 s).
//
// A plain script, on every page after the store and the sender; it defines
// ScorebookOutboxPage for the hand form's Save (save.js) and the confirm forms (word.js).
(function (global) {
  "use strict";

  const Store = global.ScorebookStore;
  const Sender = global.ScorebookSender;
  const STATUS = Sender.STATUS;
  const REFUSED = Store.REFUSED;
  const WORD = Store.WORD;
  const usable = typeof indexedDB !== "undefined" && typeof fetch === "function";
  const words = () => (document.getElementById("outbox") || { dataset: {} }).dataset;

  // Logged out (an empty key): nobody's hands are sent from here.
  Sender.user = () => (document.body && document.body.dataset.user) || null;
  Sender.ask = (question) => {
    return document.visibilityState === "visible" ? global.confirm(question) : null;
  };

  function say(text, problems) {
    const status = document.querySelector("#outbox .outbox-status");
    if (!status) return;
    status.textContent = text || "";
    (problems || []).forEach((problem) => {
      const line = document.createElement("span");
      line.className = "problem";
      line.textContent = problem;
      status.appendChild(line);
    });
    status.closest("#outbox").hidden = !status.textContent && !document.querySelector("#outbox li");
  }

  // Why a hand waits, in words. Logged in as somebody else: log in as the one who saved it,
  // named as his page named him (the server knows only that the login is not his).
  function reasonOf(item) {
    if (item.status !== STATUS.OTHER_USER || !item.userName) return item.reason;
    return (words().otherUser || item.reason).split("{name}").join(item.userName);
  }

  // --- The phone's ids -----------------------------------------------------------------------

  function uuid() {
    if (global.crypto.randomUUID) return global.crypto.randomUUID();
    const bytes = global.crypto.getRandomValues(new Uint8Array(16));
    bytes[6] = (bytes[6] & 0x0f) | 0x40; // version 4
    bytes[8] = (bytes[8] & 0x3f) | 0x80; // variant 10
    const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
    return hex.replace(/^(.{8})(.{4})(.{4})(.{4})/, "$1-$2-$3-$4-");
  }

  // This phone, not the account: two phones of one member are two phones at the table.
  function deviceId() {
    let id = localStorage.getItem("scorebook-device");
    if (!id) {
      id = uuid();
      localStorage.setItem("scorebook-device", id);
    }
    return id;
  }

  // --- The rows of the hands that wait ------------------------------------------------------

  // The hand form reopened from a pending row (posted back with its fields): Save updates it.
  function bindReopened(form, mine) {
    const field = form.querySelector("input[name=client_id]");
    const item = field && mine.find((candidate) => candidate.clientId === field.value);
    if (!item) return false;
    form.dataset.entry = item.id;
    say(words().fixing, [reasonOf(item)].concat(item.problems || []).filter(Boolean));
    return true;
  }

  function button(text, className, action) {
    const element = document.createElement("button");
    element.type = "button";
    element.textContent = text;
    element.className = className;
    element.addEventListener("click", action);
    return element;
  }

  function reasonLine(item, held) {
    const w = words();
    const reason = document.createElement("p");
    reason.className = "reason";
    if (item.state === REFUSED) reason.textContent = item.reason;
    else if (held) reason.textContent = w.held;
    else reason.textContent = item.reason ? w.waiting + " — " + reasonOf(item) : w.waiting;
    (item.state === REFUSED ? item.problems || [] : []).forEach((problem) => {
      const line = document.createElement("span");
      line.className = "problem";
      line.textContent = problem;
      reason.appendChild(line);
    });
    if (item.login) {
      const login = document.createElement("a");
      login.href = item.login;
      login.textContent = w.login;
      reason.append(" ", login);
    }
    return reason;
  }

  function pendingRow(item, held) {
    const w = words();
    const row = document.createElement("li");
    row.className = "outbox-row " + (held && item.state !== REFUSED ? "held" : item.state);
    row.dataset.clientId = item.clientId;
    const title = document.createElement("strong");
    title.textContent = item.summary || w.hand;
    const time = document.createElement("small");
    const clock = { hour: "2-digit", minute: "2-digit" };
    time.textContent = " " + new Date(item.created).toLocaleTimeString([], clock);
    const head = document.createElement("p");
    head.append(title, time);
    const actions = document.createElement("div");
    actions.className = "actions";
    const again = item.status === STATUS.DUPLICATE ? w.recordAgain : w.sendAgain;
    // A word on a hand (word.js) has no form to open: it is sent again (of the hand as it is
    // now, when it had changed) or discarded.
    if (item.kind !== WORD) actions.append(button(w.open, "secondary", () => reopen(item.id)));
    actions.append(
      button(again, "secondary outline", () => sendAgain(item.id)),
      button(w.discard, "secondary outline", () => discard(item.id)),
    );
    row.append(head, reasonLine(item, held), actions);
    return row;
  }

  // The sheet's rows are in its outbox; the hand form's below the form (#outbox-rows).
  function renderRows(section, mine) {
    const below = document.getElementById("outbox-rows");
    if (below) below.hidden = !mine.length;
    const list = (below || section).querySelector(".outbox-rows");
    if (!list) return;
    let held = false;
    list.replaceChildren(...mine.map((item) => {
      const row = pendingRow(item, held);
      held = held || (item.state === REFUSED && item.kind !== WORD); // a word holds back nothing
      return row;
    }));
  }

  async function render() {
    const section = document.getElementById("outbox");
    const user = Sender.user();
    if (!section || !usable || user === null) return;
    const sheet = section.dataset.sheet;
    const ours = (item) => item.user === user && item.sheet === sheet;
    const mine = (await Store.entries()).filter(ours);
    const form = document.querySelector("form[data-outbox]");
    const free = form && !form.dataset.entry && !form.dataset.saving;
    const hands = mine.filter((item) => item.kind !== WORD);
    if (free && !bindReopened(form, hands)) nextHand(sheet, hands.length);
    renderRows(section, mine);
    section.hidden = !mine.length && !section.querySelector(".outbox-status").textContent;
  }

  // --- The hand form's heading while hands wait ---------------------------------------------

  function counted(key, count) {
    return (words()[key] || "").replace("{count}", count);
  }

  // The form of a new hand while hands of its session wait on this phone: its number is the
  // server's to give once they reach the sheet (the page's, maybe the worker's old copy, is
  // not it), so the heading says how many go first. Once they are recorded it is known again.
  let keptHere = false; // this page follows a save that kept its hand on the phone
  let counting = false; // the status shows the count, to keep up to date
  const lastRecorded = {}; // sheet -> the number of its last hand recorded while this page is open
  let sheetStale = false; // hands recorded from this form: the worker's copy of the sheet is old

  function nextHand(sheet, waiting) {
    const heading = document.getElementById("hand-heading");
    if (heading && waiting) heading.textContent = counted("nextHand", waiting);
    else if (heading && lastRecorded[sheet]) {
      heading.textContent = counted("numbered", lastRecorded[sheet] + 1);
    }
    if (waiting) say(counted(keptHere ? "keptCount" : "pending", waiting));
    else if (counting) say("");
    counting = waiting > 0;
    if (!waiting && sheetStale) keepSheet(sheet);
  }

  function keepSheet(sheet) {
    sheetStale = false;
    const worker = navigator.serviceWorker && navigator.serviceWorker.controller;
    if (worker) worker.postMessage({ type: "keep", url: sheet });
  }

  // --- A row's buttons ----------------------------------------------------------------------

  async function reopen(id) {
    const item = await Store.entry(id);
    if (!item) return render();
    if (!Sender.online()) return say(words().needsConnection);
    // The no-JavaScript redraw of the hand form: the page comes back with these fields filled
    // in (the contract's own fields drawn by the server), and nothing is saved.
    const form = document.createElement("form");
    form.method = "post";
    form.action = item.url;
    form.hidden = true;
    const fields = item.fields.concat([
      ["csrfmiddlewaretoken", await Sender.csrfToken(item)],
      ["client_id", item.clientId],
      ["_refresh", "1"],
    ]);
    fields.forEach(([name, value]) => {
      const input = document.createElement("input");
      input.type = "hidden";
      input.name = name;
      input.value = value;
      form.appendChild(input);
    });
    document.body.appendChild(form);
    form.submit();
  }

  async function sendAgain(id) {
    const item = await Store.entry(id);
    if (!item) return render();
    item.confirmRepeat = item.status === STATUS.DUPLICATE; // the row asked "record it again?"
    if (item.now) Sender.sayOfNow(item); // a word on a hand changed meanwhile: of it as it is now
    Object.assign(item, { state: Store.WAITING, status: "", reason: "", problems: [], login: "" });
    await Store.put(item);
    Store.changed({ type: "changed", id: item.id, sheet: item.sheet });
    if (!Sender.online()) return say(words().kept);
    Sender.sendAll();
  }

  async function discard(id) {
    if (!global.confirm(words().discardConfirm)) return;
    const item = await Store.entry(id);
    await Store.remove(id);
    Store.changed({ type: "discarded", id: id, sheet: item && item.sheet });
  }

  // --- What the page hears of the outbox ----------------------------------------------------

  // The sheet on the page shows the hands just recorded (its poll would, within seconds), and
  // the worker's copy of the page for offline use is made again.
  let pollAgain = false;
  document.addEventListener("htmx:afterRequest", (event) => {
    if (!pollAgain || !event.detail.elt || event.detail.elt.id !== "sheet-poll") return;
    pollAgain = false;
    setTimeout(refreshSheet);
  });

  function refreshSheet() {
    const poll = document.getElementById("sheet-poll");
    if (poll && global.htmx) {
      // Polled now, from the poll itself: one request at a time, each from the version the
      // sheet shows. While one is out, again once its answer is in: its answer replaces the
      // poll, and htmx drops what waits on a poll that is gone.
      if (poll.classList.contains("htmx-request")) pollAgain = true;
      else global.htmx.ajax("GET", poll.getAttribute("hx-get"), { source: poll, swap: "none" });
    }
    const worker = navigator.serviceWorker && navigator.serviceWorker.controller;
    if (worker) worker.postMessage({ type: "keep", url: location.pathname });
  }

  Store.listen((news) => {
    const section = document.getElementById("outbox");
    if (!section || (news.sheet && news.sheet !== section.dataset.sheet)) return;
    const form = document.querySelector("form[data-outbox]");
    // (A word's number is its hand's, recorded before: it tells nothing of the next hand.)
    if (news.type === STATUS.RECORDED && form && news.number && news.kind !== WORD) {
      lastRecorded[news.sheet] = Math.max(lastRecorded[news.sheet] || 0, news.number);
      sheetStale = true;
    }
    if (news.type === STATUS.RECORDED && !form) {
      say(""); // "saved on this phone" is no longer news
      refreshSheet();
    }
    if (news.type === "declined" && !document.querySelector("form[data-outbox]")) say(news.reason);
    if (news.type === "sending" && document.querySelector("form[data-outbox][data-saving]")) return;
    render();
  });

  // --- When the page sends ------------------------------------------------------------------

  function sendSoon() {
    if (usable && Sender.online() && document.visibilityState === "visible") Sender.sendAll();
  }

  async function start() {
    if (!usable) return;
    const said = sessionStorage.getItem("scorebook-outbox-said");
    const show = sessionStorage.getItem("scorebook-outbox-show");
    keptHere = sessionStorage.getItem("scorebook-outbox-kept") === "1";
    sessionStorage.removeItem("scorebook-outbox-kept");
    sessionStorage.removeItem("scorebook-outbox-said");
    sessionStorage.removeItem("scorebook-outbox-show");
    if (said) say(said);
    await render();
    const shown = show && document.getElementById(show);
    if (shown) shown.scrollIntoView({ block: "start" });
    sendSoon();
  }

  window.addEventListener("online", sendSoon);
  document.addEventListener("visibilitychange", sendSoon);
  setInterval(sendSoon, 20000);
  // A save answered by a whole page (an edit) swaps the body: the new page's outbox, if any.
  document.addEventListener("htmx:afterSettle", (event) => {
    if (event.detail.target === document.body) render();
  });
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();

  global.ScorebookOutboxPage = { usable, words, say, uuid, deviceId };
})(self);
