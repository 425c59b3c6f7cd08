// The phone's outbox (issue 15): a hand saved on this phone stays in IndexedDB until the
// server has recorded it; the outbox sends its hands in the order they were entered, one at
// a time, each exactly once (its client_id, made here when Save is tapped, makes a repeat
// harmless: the server answers it with the hand it already stored).
//
// Loaded by every page (templates/base.html) and by the service worker (sw.js imports it for
// Background Sync). The first part, the store and the sender, runs in both; the second, the
// hand form's Save and the pending rows of the sheet and the hand form, only in a page.
//
// The server's answers to a send (header X-Scorebook-Outbox: 1) are JSON: 200 "recorded";
// 409 "differs" / "duplicate" / "closed" / "conflict" and 422 "invalid" need the scorekeeper;
// 401 "login", 403 "csrf" and 409 "other-user" (the browser is logged in as somebody else
// than the person who saved the hand) wait for a new login; anything else (no answer, a 5xx,
// a page instead of JSON) means "not sent, try again".
(function (global) {
  "use strict";

  const DB_NAME = "scorebook";
  const STORE = "outbox";
  const LOCK = "scorebook-outbox"; // one sender at a time over every tab and the worker
  const CHANNEL = "scorebook-outbox";
  const SYNC_TAG = "scorebook-outbox"; // Background Sync's name for it (sw.js)
  const CSRF_COOKIE = "csrftoken";
  const SEND_TIMEOUT = 10000; // ms; a save unanswered by then is kept and sent again later
  const WAITING = "waiting"; // sent by itself when the connection (or the login) is back
  const REFUSED = "refused"; // the server said no: the scorekeeper opens, resends or discards it
  const OTHER_USER = "other-user"; // logged in as somebody else: waits for its own person
  // Fields the outbox sets itself on every send, whatever the form holds.
  const OWN_FIELDS = ["csrfmiddlewaretoken", "client_id", "device_id", "confirm_repeat", "save"];

  // --- The store ------------------------------------------------------------------------

  let opened = null;

  function database() {
    if (!opened) {
      opened = new Promise((resolve, reject) => {
        const request = indexedDB.open(DB_NAME, 1);
        request.onupgradeneeded = () => {
          // Keys grow with each entry: reading the store in key order is the order entered.
          request.result.createObjectStore(STORE, { keyPath: "id", autoIncrement: true });
        };
        request.onsuccess = () => {
          const db = request.result;
          db.onversionchange = () => { db.close(); opened = null; };
          resolve(db);
        };
        request.onerror = () => { opened = null; reject(request.error); };
      });
    }
    return opened;
  }

  function transact(mode, work) {
    return database().then((db) => new Promise((resolve, reject) => {
      const tx = db.transaction(STORE, mode);
      const request = work(tx.objectStore(STORE));
      tx.oncomplete = () => resolve(request ? request.result : undefined);
      tx.onerror = tx.onabort = () => reject(tx.error);
    }));
  }

  const entries = () => transact("readonly", (store) => store.getAll());
  const entry = (id) => transact("readonly", (store) => store.get(id));
  const put = (item) => transact("readwrite", (store) => store.put(item));
  const remove = (id) => transact("readwrite", (store) => store.delete(id));

  // --- Telling every page what changed ----------------------------------------------------

  const channel = typeof BroadcastChannel === "function" ? new BroadcastChannel(CHANNEL) : null;
  const listeners = [];

  function changed(news) {
    if (channel) channel.postMessage(news); // the other tabs and the worker
    listeners.forEach((listener) => listener(news)); // this page: a channel skips its sender
  }
  if (channel) channel.onmessage = (event) => listeners.forEach((listener) => listener(event.data));
  listeners.push((news) => {
    if (news.type === "recorded") recorded[news.id] = news.number;
    if (news.type === "declined") declined.add(news.id);
  });

  // --- Sending --------------------------------------------------------------------------

  function cookie(name) {
    const match = document.cookie.match(new RegExp("(?:^|;\\s*)" + name + "=([^;]+)"));
    return match ? decodeURIComponent(match[1]) : "";
  }

  // The CSRF token of now: the one kept with the entry is stale after a new login.
  async function csrfToken(item) {
    if (typeof document !== "undefined") {
      const field = document.querySelector("input[name=csrfmiddlewaretoken]");
      return cookie(CSRF_COOKIE) || (field && field.value) || item.token;
    }
    if (global.cookieStore) {
      try {
        const found = await global.cookieStore.get(CSRF_COOKIE);
        if (found) return found.value;
      } catch (error) { /* no cookie store here: the entry's token */ }
    }
    return item.token;
  }

  async function post(item) {
    const token = await csrfToken(item);
    const body = new URLSearchParams(item.fields);
    body.append("csrfmiddlewaretoken", token);
    body.append("client_id", item.clientId);
    body.append("device_id", item.device);
    body.append("save", "1");
    if (item.confirmRepeat) body.append("confirm_repeat", "1");
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), SEND_TIMEOUT);
    try {
      const response = await fetch(item.url, {
        method: "POST",
        body: body,
        credentials: "same-origin",
        redirect: "manual", // a redirect (to a login page) is not a success
        signal: abort.signal,
        headers: {
          "X-Scorebook-Outbox": "1",
          // Whose hand it is: one browser has one login, which a login in any tab replaces.
          "X-Scorebook-User": item.user,
          "X-CSRFToken": token,
          Accept: "application/json",
        },
      });
      const json = (response.headers.get("Content-Type") || "").startsWith("application/json");
      return { code: response.status, answer: json ? await response.json() : null };
    } catch (error) {
      return { code: 0, answer: null }; // no connection, timed out, or not JSON after all
    } finally {
      clearTimeout(timer);
    }
  }

  // The problems of a refused hand, in words: its message says them all, one a line; else
  // each field's own.
  function problemsOf(answer) {
    if (answer.message) return [];
    const problems = [];
    Object.values(answer.errors || {}).forEach((messages) => {
      [].concat(messages).forEach((message) => problems.push(String(message)));
    });
    return problems;
  }

  // recorded | refused | stopped (nothing more is sent now: the connection, or the login)
  function outcome(reply) {
    const answer = reply.answer;
    if (!answer || !answer.status) return { kind: "stopped", status: "", reason: "" };
    if (reply.code === 200 && answer.status === "recorded") {
      return { kind: "recorded", number: answer.number, repeat: Boolean(answer.repeat) };
    }
    // Not refused: it waits (and holds back nothing) until its own person logs in again.
    const waits = reply.code === 401 || reply.code === 403 || answer.status === OTHER_USER;
    if (!waits && (reply.code === 409 || reply.code === 422)) {
      const problems = problemsOf(answer);
      return { kind: "refused", status: answer.status, reason: answer.message || "", problems };
    }
    if (waits) {
      const login = answer.login || "";
      return { kind: "stopped", status: answer.status, reason: answer.message || "", login };
    }
    return { kind: "stopped", status: "", reason: "" };
  }

  // What became of entries that left the outbox, whoever sent them: the page that saved a
  // hand follows it to the sheet.
  const recorded = {}; // entry id -> the hand's number
  const declined = new Set(); // entry ids the scorekeeper did not record again

  async function sendOne(item) {
    changed({ type: "sending", id: item.id, sheet: item.sheet });
    const result = outcome(await post(item));
    if (result.kind === "recorded") {
      await remove(item.id);
      const { number, repeat } = result;
      changed({ type: "recorded", id: item.id, sheet: item.sheet, number, repeat });
      return "recorded";
    }
    if (result.status === "duplicate" && !item.confirmRepeat) {
      const again = Outbox.ask(result.reason);
      if (again === false) { // "no, it is the same hand": it is not recorded twice
        await remove(item.id);
        changed({ type: "declined", id: item.id, sheet: item.sheet, reason: result.reason });
        return "declined";
      }
      if (again === true) {
        item.confirmRepeat = true;
        await put(item);
        return sendOne(item);
      }
    }
    Object.assign(item, {
      state: result.kind === "refused" ? REFUSED : WAITING,
      status: result.status,
      reason: result.reason,
      problems: result.problems || [],
      login: result.login || "",
    });
    await put(item);
    changed({ type: result.kind, id: item.id, sheet: item.sheet });
    return result.kind;
  }

  const online = () => !global.navigator || global.navigator.onLine !== false;

  // One pass over the outbox: each session's hands in order; a refused hand holds back the
  // hands entered after it in its session (the server numbers hands as they arrive).
  async function pass() {
    const user = await Outbox.user();
    if (user === null) return;
    const held = new Set();
    for (const listed of await entries()) {
      if (!online()) return;
      if (listed.user !== user || held.has(listed.sheet)) continue;
      const item = await entry(listed.id); // as it is now: another tab may have changed it
      if (!item) continue;
      if (item.state === REFUSED) { held.add(item.sheet); continue; }
      const kind = await sendOne(item);
      if (kind === "stopped") return;
      if (kind === "refused") held.add(item.sheet);
    }
  }

  function locked(work) {
    const locks = global.navigator && global.navigator.locks;
    return locks && locks.request ? locks.request(LOCK, work) : work();
  }

  let running = null; // this page's pass
  let queued = null; // the one pass asked for while it runs

  function sendAll() {
    if (!running) {
      const finish = () => { running = null; };
      running = locked(pass).then(finish, finish);
      return running;
    }
    if (!queued) {
      queued = running.then(() => { queued = null; return sendAll(); });
    }
    return queued;
  }

  const Outbox = {
    WAITING, REFUSED, SYNC_TAG,
    entries, entry, put, remove, sendAll, changed,
    listen: (listener) => listeners.push(listener),
    // Whose hands this context sends: a user key (the page's <body data-user>), or null for
    // nobody. The page and the worker each set their own.
    user: () => null,
    // Ask "record it again?" of the scorekeeper: true, false, or null when nobody can answer.
    ask: () => null,
  };
  global.ScorebookOutbox = Outbox;

  if (typeof document === "undefined") return; // the service worker: the sender is enough

  // --- The page: the hand form's Save -------------------------------------------------------

  const usable = typeof indexedDB !== "undefined" && typeof fetch === "function";
  const words = () => (document.getElementById("outbox") || { dataset: {} }).dataset;

  // Logged out (an empty key): nobody's hands are sent from here.
  Outbox.user = () => (document.body && document.body.dataset.user) || null;
  Outbox.ask = (question) => {
    return document.visibilityState === "visible" ? global.confirm(question) : null;
  };

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
    if (item.status !== OTHER_USER || !item.userName) return item.reason;
    return (words().otherUser || item.reason).split("{name}").join(item.userName);
  }

  function sheetOf(form) {
    return form.dataset.outboxSheet;
  }

  // A hand opened from the outbox to fix it keeps its id: if its first send did arrive, the
  // server says so instead of storing it twice (also when another tab sent it meanwhile).
  // Unless the server said that id is taken by other content: then it is entered anew.
  function clientIdFor(form, bound) {
    if (bound) return bound.status === "differs" ? uuid() : bound.clientId;
    const field = form.querySelector("input[name=client_id]");
    return form.dataset.entry && field && field.value ? field.value : uuid();
  }

  // The entry this form saves again: the one it was opened from (its client_id, posted back
  // by the server) or saved to before, whether or not the page has said so yet.
  async function boundEntry(form) {
    if (form.dataset.entry) return entry(Number(form.dataset.entry));
    const field = form.querySelector("input[name=client_id]");
    const mine = (item) => item.user === Outbox.user() && field && item.clientId === field.value;
    const found = (await entries()).find(mine);
    if (found) form.dataset.entry = found.id;
    return found;
  }

  async function keepHand(form) {
    const bound = await boundEntry(form);
    const item = bound || { created: Date.now() };
    Object.assign(item, {
      user: Outbox.user(),
      userName: document.body.dataset.userName || "", // to say whose login it waits for
      url: form.dataset.outbox,
      sheet: sheetOf(form),
      fields: formFields(form),
      token: (form.querySelector("input[name=csrfmiddlewaretoken]") || {}).value || "",
      summary: summary(form),
      clientId: clientIdFor(form, bound),
      device: deviceId(),
      state: WAITING,
      status: "",
      reason: "",
      problems: [],
      login: "",
      confirmRepeat: false,
    });
    item.id = await put(item);
    form.dataset.entry = item.id;
    const field = form.querySelector("input[name=client_id]");
    if (field) field.value = item.clientId;
    if (navigator.storage && navigator.storage.persist) navigator.storage.persist().catch(() => {});
    return item;
  }

  function askForSync() {
    if (!navigator.serviceWorker) return;
    navigator.serviceWorker.getRegistration().then((registration) => {
      if (registration && registration.sync) return registration.sync.register(SYNC_TAG);
    }).catch(() => {}); // no Background Sync (Safari): the page's own triggers send it
  }

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

  async function save(form) {
    if (form.dataset.saving) return; // a second tap while the first is kept and sent
    busy(form, true);
    let item;
    try {
      item = await keepHand(form);
    } catch (error) {
      // No IndexedDB here (a private window, a full disk): save the old way, straight away.
      form.removeAttribute("data-outbox");
      busy(form, false);
      form.querySelector("button[name=save]:not([hidden])").click();
      return;
    }
    say(online() ? words().sending : words().kept);
    await sendAll();
    const after = await entry(item.id);
    if (!after && recorded[item.id]) return toSheet(sheetOf(form), "hand-" + recorded[item.id]);
    if (!after && !declined.has(item.id)) return toSheet(sheetOf(form)); // sent by another tab
    busy(form, false);
    if (!after) { // "it is the same hand": not recorded again
      delete form.dataset.entry;
      return say(words().declined);
    }
    if (after.state === WAITING) {
      askForSync();
      return toNextForm(); // its row says why it waits
    }
    if (after.status === "invalid" && global.htmx) return showProblems(form);
    say(after.reason, after.problems);
  }

  const outboxForm = (form) => {
    return usable && form && form.matches("form[data-outbox]:not([data-via-htmx])");
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

  // --- The page: pending hands --------------------------------------------------------------

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
    const actions = document.createElement("div");
    actions.className = "actions";
    const again = item.status === "duplicate" ? w.recordAgain : w.sendAgain;
    actions.append(
      button(w.open, "secondary", () => reopen(item.id)),
      button(again, "secondary outline", () => sendAgain(item.id)),
      button(w.discard, "secondary outline", () => discard(item.id)),
    );
    row.append(head, reason, actions);
    if (item.login) {
      const login = document.createElement("a");
      login.href = item.login;
      login.textContent = w.login;
      reason.append(" ", login);
    }
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
      held = held || item.state === REFUSED;
      return row;
    }));
  }

  async function render() {
    const section = document.getElementById("outbox");
    const user = Outbox.user();
    if (!section || !usable || user === null) return;
    const sheet = section.dataset.sheet;
    const mine = (await entries()).filter((item) => item.user === user && item.sheet === sheet);
    const form = document.querySelector("form[data-outbox]");
    const free = form && !form.dataset.entry && !form.dataset.saving;
    if (free && !bindReopened(form, mine)) nextHand(sheet, mine.length);
    renderRows(section, mine);
    section.hidden = !mine.length && !section.querySelector(".outbox-status").textContent;
  }

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

  async function reopen(id) {
    const item = await entry(id);
    if (!item) return render();
    if (!online()) return say(words().needsConnection);
    // The no-JavaScript redraw of the hand form: the page comes back with these fields filled
    // in (the contract's own fields drawn by the server), and nothing is saved.
    const form = document.createElement("form");
    form.method = "post";
    form.action = item.url;
    form.hidden = true;
    const fields = item.fields.concat([
      ["csrfmiddlewaretoken", await csrfToken(item)],
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
    const item = await entry(id);
    if (!item) return render();
    item.confirmRepeat = item.status === "duplicate"; // the row asked "record it again?"
    Object.assign(item, { state: WAITING, status: "", reason: "", problems: [], login: "" });
    await put(item);
    changed({ type: "changed", id: item.id, sheet: item.sheet });
    if (!online()) return say(words().kept);
    sendAll();
  }

  async function discard(id) {
    if (!global.confirm(words().discardConfirm)) return;
    const item = await entry(id);
    await remove(id);
    changed({ type: "discarded", id: id, sheet: item && item.sheet });
  }

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

  Outbox.listen((news) => {
    const section = document.getElementById("outbox");
    if (!section || (news.sheet && news.sheet !== section.dataset.sheet)) return;
    const form = document.querySelector("form[data-outbox]");
    if (news.type === "recorded" && form && news.number) {
      lastRecorded[news.sheet] = Math.max(lastRecorded[news.sheet] || 0, news.number);
      sheetStale = true;
    }
    if (news.type === "recorded" && !form) {
      say(""); // "saved on this phone" is no longer news
      refreshSheet();
    }
    if (news.type === "declined" && !document.querySelector("form[data-outbox]")) say(news.reason);
    if (news.type === "sending" && document.querySelector("form[data-outbox][data-saving]")) return;
    render();
  });

  function sendSoon() {
    if (usable && online() && document.visibilityState === "visible") sendAll();
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
})(self);
