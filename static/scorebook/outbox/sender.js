// The phone's outbox (issue 15), its sender: the hands kept in the store (store.js) are sent
// in the order they were entered, one at a time, each exactly once (its client_id, made when
// Save is tapped, makes a repeat harmless: the server answers it with the hand it already
// stored). Every page sends (page.js starts it), and so does the service worker for
// Background Sync (sw.js imports this script after the store).
//
// A plain script that defines one object, ScorebookSender. Its words for the server's answers
// are the server's own (scorebook/outbox.py), as the server wrote them: into this script's
// tag in a page (data-status), into /sw.js in the worker (ScorebookServer.status).
//
// Two kinds of entries are sent alike: hands (save.js) and the players' words on hands
// (word.js, kind WORD, posted to the hand's confirm page); in one order, so that a word goes
// after every hand entered before it, its own included.
//
// The server's answers to a send (header X-Scorebook-Outbox: 1) are JSON, their `status` one
// of those words: 200 RECORDED; 409 and 422 refusals (DIFFERS, DUPLICATE, CLOSED, CONFLICT,
// INVALID) need the scorekeeper; 401, 403 and 409 OTHER_USER (the browser is logged in as
// somebody else than the person who saved the hand) wait for a new login; anything else (no
// answer, a 5xx, a page instead of JSON) means "not sent, try again".
(function (global) {
  "use strict";

  const Store = global.ScorebookStore;
  const LOCK = "scorebook-outbox"; // one sender at a time over every tab and the worker
  const SYNC_TAG = "scorebook-outbox"; // Background Sync's name for it (sw.js)
  const CSRF_COOKIE = "csrftoken";
  const SEND_TIMEOUT = 10000; // ms; a save unanswered by then is kept and sent again later

  function serverWords() {
    const tag = global.document && global.document.currentScript;
    return Object.freeze(tag ? JSON.parse(tag.dataset.status) : global.ScorebookServer.status);
  }
  const STATUS = serverWords();

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

  // The kind of an answer: recorded (the server's word) | refused | stopped (nothing more is
  // sent now: the connection, or the login)
  function outcome(reply) {
    const answer = reply.answer;
    if (!answer || !answer.status) return { kind: "stopped", status: "", reason: "" };
    if (reply.code === 200 && answer.status === STATUS.RECORDED) {
      const { number, message } = answer;
      return { kind: STATUS.RECORDED, number, repeat: Boolean(answer.repeat), message };
    }
    // Not refused: it waits (and holds back nothing) until its own person logs in again.
    const waits = reply.code === 401 || reply.code === 403 || answer.status === STATUS.OTHER_USER;
    if (!waits && (reply.code === 409 || reply.code === 422)) {
      const problems = problemsOf(answer);
      // A word on a hand changed meanwhile: the hand as it is now, to ask again of it.
      const now = answer.version ? { version: answer.version, line: answer.line || "" } : null;
      return { kind: "refused", status: answer.status, reason: answer.message || "", problems, now };
    }
    if (waits) {
      const login = answer.login || "";
      return { kind: "stopped", status: answer.status, reason: answer.message || "", login };
    }
    return { kind: "stopped", status: "", reason: "" };
  }

  // A hand the server found the same as one just recorded from another phone: "record it
  // again?", asked of whoever can answer. "declined" when it is the same hand (it leaves the
  // outbox, not recorded twice), the next send's kind when it is another, null when nobody
  // answers (it waits on the sheet with its question).
  async function askAgain(item, result) {
    const again = Sender.ask(result.reason);
    if (again === false) {
      await Store.remove(item.id);
      Store.changed({ type: "declined", id: item.id, sheet: item.sheet, reason: result.reason });
      return "declined";
    }
    if (again !== true) return null;
    item.confirmRepeat = true;
    await Store.put(item);
    return sendOne(item);
  }

  async function sendOne(item) {
    Store.changed({ type: "sending", id: item.id, sheet: item.sheet });
    const result = outcome(await post(item));
    if (result.kind === STATUS.RECORDED) {
      await Store.remove(item.id);
      const { number, repeat, message } = result;
      const news = { type: STATUS.RECORDED, id: item.id, sheet: item.sheet, number, repeat };
      Store.changed(Object.assign(news, { kind: item.kind, message: message || "" }));
      return result.kind;
    }
    if (result.status === STATUS.DUPLICATE && !item.confirmRepeat) {
      const asked = await askAgain(item, result);
      if (asked) return asked;
    }
    Object.assign(item, {
      state: result.kind === "refused" ? Store.REFUSED : Store.WAITING,
      status: result.status,
      reason: result.reason,
      problems: result.problems || [],
      login: result.login || "",
      now: result.now || null,
    });
    if (item.now) item.reason += " " + item.now.line;
    await Store.put(item);
    Store.changed({ type: result.kind, id: item.id, sheet: item.sheet });
    return result.kind;
  }

  const online = () => !global.navigator || global.navigator.onLine !== false;

  // One pass over the outbox: each session's hands in order; a refused hand holds back the
  // hands entered after it in its session (the server numbers hands as they arrive).
  async function pass() {
    const user = await Sender.user();
    if (user === null) return;
    const held = new Set();
    for (const listed of await Store.entries()) {
      if (!online()) return;
      if (listed.user !== user || held.has(listed.sheet)) continue;
      const item = await Store.entry(listed.id); // as it is now: another tab may have changed it
      if (!item) continue;
      // A word (word.js) waits behind a refused hand (maybe its own), and holds back nothing.
      const holds = item.kind !== Store.WORD;
      if (item.state === Store.REFUSED) { if (holds) held.add(item.sheet); continue; }
      const kind = await sendOne(item);
      if (kind === "stopped") return;
      if (kind === "refused" && holds) held.add(item.sheet);
    }
  }

  function locked(work) {
    const locks = global.navigator && global.navigator.locks;
    return locks && locks.request ? locks.request(LOCK, work) : work();
  }

  let running = null; // this context's pass
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

  // A word refused because its hand changed, said again of the hand as it is now (the phone
  // showed its new line): its version and its line.
  function sayOfNow(item) {
    item.fields = item.fields.map(([name, value]) => {
      return [name, name === "version" ? String(item.now.version) : value];
    });
    item.summary = (item.head ? item.head + " " : "") + item.now.line;
    item.now = null;
  }

  const Sender = {
    STATUS, SYNC_TAG,
    sendAll, csrfToken, online, sayOfNow,
    // Whose hands this context sends: a user key (the page's <body data-user>), or null for
    // nobody. The page (page.js) and the worker each set their own.
    user: () => null,
    // Ask "record it again?" of the scorekeeper: true, false, or null when nobody can answer.
    ask: () => null,
  };
  global.ScorebookSender = Sender;
})(self);
