// Scorebook's service worker (issue 15), served at /sw.js for the whole site.
//
// - The app shell (CSS, htmx, scripts, icons, the offline page) is kept at install and
//   whenever a page names its static files; static files are served from it at once and
//   refreshed behind (their names carry a hash in production).
// - Pages: the network first; when it fails or is slow, the copy last seen of a page kept
//   (KEPT_PAGES), kept per user, then /offline/. A hand form opened online keeps its sheet
//   too, which the phone may never have opened (it came from the session's page). Whose: the
//   user named in the last page the network answered (<body data-user>, "" logged out); a
//   copy is kept under the user its page names and shown only while that user is the one
//   and his login lasts (<body data-user-expires>, kept in the copy): another user or a
//   logged-out visitor never gets it. A page for another user or for nobody drops the copies
//   of the one before at once, and so does logging out (offline.js says so). A page shown
//   from a copy (or the offline page) never changes whose pages they are.
// - The offline page is nobody's (no name, no "Log in"): one copy per language the phone's
//   pages spoke (<html lang>), and the one of the last page the network answered is shown.
// - Logging out without a connection: the copies are dropped and every open page shows the
//   site logged out at once; the logout itself is kept, and sent before any other request
//   reaches the server when the connection is back (a phone handed over at a table without
//   signal is not left logged in on the server for the next one to use).
// - Background Sync: the outbox's store and sender (outbox/store.js, outbox/sender.js, the
//   pages' own) are imported, and the outbox is sent from here too, in order, under the same
//   lock as the pages.
// - What only the server knows is written in by /sw.js's view (scorebook/views/worker.py)
//   in place of the empty object below: the version of the caches, the offline page's
//   address, the pages kept (keptPages: the regular expression of each one's path, made from
//   its URL name), the outbox's scripts under their names of this deploy and its status words.
//   Any change to them is a change of this script's bytes: the browser installs a new worker.
"use strict";

self.ScorebookServer = /* written by the server */ {};
const SERVER = self.ScorebookServer;
const OFFLINE_URL = SERVER.offline;
const PAGES = "scorebook-pages:"; // + the user's key
const META = "scorebook-meta";
const USER_KEY = "/__scorebook/user";
const LOGOUT_KEY = "/__scorebook/logout"; // a logout made offline: its address and token
const LANGUAGE_KEY = "/__scorebook/language"; // the <html lang> of the last page seen
const PAGE_TIMEOUT = 4000; // ms before a kept page is shown instead of waiting on the network
const SHELL_SIZE = 60; // files; old versions of static files drop out first
const KEPT_PAGES = SERVER.keptPages.map((source) => new RegExp(source));
const SHELL = "scorebook-shell:" + SERVER.version;

importScripts(...SERVER.scripts);
const Store = self.ScorebookStore;
const Sender = self.ScorebookSender;

function isStatic(url) {
  return url.origin === self.location.origin && url.pathname.startsWith("/static/");
}

// --- Whose pages -----------------------------------------------------------------------

let currentUser = null;

async function user() {
  if (currentUser === null) {
    const kept = await caches.match(USER_KEY, { cacheName: META });
    currentUser = kept ? await kept.text() : "";
  }
  return currentUser;
}

async function setUser(key) {
  const before = await user();
  currentUser = key;
  const meta = await caches.open(META);
  await meta.put(USER_KEY, new Response(key));
  if (key !== before) await dropPages(key); // another user, or nobody: nothing of the last one
}

// Nobody's pages, whatever the worker took for the user before.
const loggedOut = () => setUser("").then(() => dropPages(""));

async function dropPages(except) {
  const names = await caches.keys();
  await Promise.all(
    names
      .filter((name) => name.startsWith(PAGES) && name !== PAGES + except)
      .map((name) => caches.delete(name))
  );
}

// What a page says of its user in its <body data-…>: null where it says nothing.
function bodyData(html, name) {
  const body = /<body\b[^>]*>/i.exec(html);
  const found = body && new RegExp("\\sdata-" + name + '="([^"]*)"').exec(body[0]);
  return found ? found[1] : null;
}

const userIn = (html) => bodyData(html, "user");

// The sheet a hand form saves to: its <form data-outbox-sheet> (scorebook/hand_form.html).
function sheetIn(html) {
  const found = /\sdata-outbox-sheet="([^"]*)"/.exec(html);
  return found ? found[1] : null;
}

function languageIn(html) {
  const found = /<html\b[^>]*\slang="([^"]+)"/i.exec(html);
  return found ? found[1] : null;
}

// --- The app shell ---------------------------------------------------------------------

async function keepShell(urls) {
  const cache = await caches.open(SHELL);
  await Promise.all(urls.map(async (url) => {
    if (!(await cache.match(url))) await cache.add(url).catch(() => {});
  }));
  // The offline pages stay: they are not static files, and one is all a page may fall back to.
  const keys = (await cache.keys()).filter((key) => !isOfflinePage(new URL(key.url)));
  const oldest = keys.slice(0, Math.max(0, keys.length - SHELL_SIZE));
  await Promise.all(oldest.map((key) => cache.delete(key)));
}

// The offline page as a logged-out visitor sees it (no name in its header), and every static
// file it names: the CSS, htmx, the scripts and icons under their names of this deploy.
async function installShell() {
  const cache = await caches.open(SHELL);
  const response = await fetch(OFFLINE_URL, { credentials: "omit" });
  if (!response.ok) return;
  const html = await response.clone().text();
  await cache.put(OFFLINE_URL, response);
  const named = Array.from(html.matchAll(/(?:href|src)="(\/static\/[^"]+)"/g), (match) => match[1]);
  await keepShell(named.concat(SERVER.scripts));
  const lang = await language(); // a new worker: the language the phone spoke before it
  if (lang) await keepOfflinePage(lang);
}

// --- The offline page, in the language of the pages ----------------------------------------

let currentLanguage = null;

async function language() {
  if (currentLanguage === null) {
    const kept = await caches.match(LANGUAGE_KEY, { cacheName: META });
    currentLanguage = kept ? await kept.text() : "";
  }
  return currentLanguage;
}

const offlineKey = (lang) => OFFLINE_URL + "?lang=" + encodeURIComponent(lang);
const isOfflinePage = (url) => url.pathname === OFFLINE_URL;

// Kept with the shell, whose static files of this deploy it names; fetched without cookies:
// it is nobody's, the server speaks the language it is asked for.
async function keepOfflinePage(lang) {
  const cache = await caches.open(SHELL);
  if (await cache.match(offlineKey(lang))) return;
  const response = await fetch(offlineKey(lang), { credentials: "omit" });
  if (response.ok) await cache.put(offlineKey(lang), response);
}

async function learnLanguage(lang) {
  if (lang !== (await language())) {
    currentLanguage = lang;
    const meta = await caches.open(META);
    await meta.put(LANGUAGE_KEY, new Response(lang));
  }
  await keepOfflinePage(lang);
}

self.addEventListener("install", (event) => {
  // A worker without its shell still sends the outbox and keeps pages: the offline page comes
  // with the next install.
  event.waitUntil(installShell().catch(() => {}).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    const names = await caches.keys();
    await Promise.all(
      names
        .filter((name) => name.startsWith("scorebook-shell:") && name !== SHELL)
        .map((name) => caches.delete(name))
    );
    await self.clients.claim();
  })());
});

// --- Answering requests ----------------------------------------------------------------

const pageKey = (url) => url.origin + url.pathname;

async function keptPage(url) {
  const key = await user();
  if (!key) return undefined;
  const cache = await caches.open(PAGES + key);
  const copy = await cache.match(pageKey(url), { ignoreVary: true });
  if (!copy) return undefined;
  // Past the end of the login it was seen with, the person may have left the phone to others.
  const ends = Number(bodyData(await copy.clone().text(), "user-expires"));
  if (ends && Date.now() < ends) return copy;
  await cache.delete(pageKey(url));
  return undefined;
}

// The offline page in the language of the last page; else the one installed (the browser's).
async function offlinePage() {
  const lang = await language();
  const spoken = lang && (await caches.match(offlineKey(lang), { cacheName: SHELL }));
  return spoken || (await caches.match(OFFLINE_URL, { cacheName: SHELL })) || Response.error();
}

const isKept = (url) => KEPT_PAGES.some((pattern) => pattern.test(url.pathname));

// Learn whose pages they are from a page the network answered, and keep a copy of it as its
// user saw it: a full page of a logged-in user, never a redirect (to the login page) or an
// error.
async function learnPage(url, response) {
  const type = response.headers.get("Content-Type") || "";
  if (!response.ok || response.type !== "basic" || !type.startsWith("text/html")) return;
  const html = await response.clone().text();
  const key = userIn(html);
  if (key === null) return; // a page for anybody (the offline page) tells nothing
  await setUser(key);
  const lang = languageIn(html);
  if (lang) await learnLanguage(lang).catch(() => {}); // no offline page now: the one before
  if (!key || !isKept(url) || response.redirected) return;
  const cache = await caches.open(PAGES + key);
  await cache.put(pageKey(url), response);
  // A hand form's sheet, which the form names (data-outbox-sheet): "Back to the sheet"
  // offline, though the phone may have come to the form from the session's page. Fetched
  // once; the sheet a save online goes to refreshes it, and so do the hands the form's outbox
  // sends (outbox/page.js).
  const named = sheetIn(html);
  if (named) {
    const sheet = new URL(named, url.origin);
    if (!(await cache.match(pageKey(sheet), { ignoreVary: true }))) await keepNow(sheet.pathname);
  }
}

function page(event, url) {
  const network = fetch(event.request);
  event.waitUntil(network.then((response) => learnPage(url, response.clone())).catch(() => {}));
  if (!isKept(url)) return network.catch(offlinePage);
  return new Promise((resolve) => {
    let answered = false;
    const answer = (response) => {
      if (!answered && response) {
        answered = true;
        resolve(response);
      }
    };
    // Slow network: the copy, if there is one; the network's answer still refreshes it.
    const timer = setTimeout(() => keptPage(url).then(answer), PAGE_TIMEOUT);
    network.then(
      (response) => { clearTimeout(timer); answer(response); },
      async () => {
        clearTimeout(timer);
        answer((await keptPage(url)) || (await offlinePage()));
      }
    );
  });
}

async function staticFile(event) {
  const cache = await caches.open(SHELL);
  const cached = await cache.match(event.request);
  const fresh = fetch(event.request).then(async (response) => {
    if (response.ok) await cache.put(event.request, response.clone());
    return response;
  });
  if (cached) {
    event.waitUntil(fresh.catch(() => {}));
    return cached;
  }
  return fresh;
}

function answer(event, url) {
  const request = event.request;
  if (request.method !== "GET") return null; // saves go to the server (the outbox keeps them)
  if (request.mode === "navigate") return page(event, url);
  if (isStatic(url)) return staticFile(event);
  return null;
}

// While a logout waits to be sent nothing else reaches the server: what a page asks for then
// is answered as without a connection.
async function withoutNetwork(event, url) {
  if (event.request.mode === "navigate") return offlinePage();
  const shell = isStatic(url) && (await caches.match(event.request, { cacheName: SHELL }));
  return shell || Response.error();
}

self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (url.origin !== self.location.origin) return;
  if (logoutKept === false) {
    const response = answer(event, url);
    if (response) event.respondWith(response);
    return;
  }
  event.respondWith(logoutFirst().then((sent) => {
    if (!sent) return withoutNetwork(event, url);
    return answer(event, url) || fetch(event.request);
  }));
});

// --- Logging out without a connection ------------------------------------------------------

let logoutKept = null; // whether a logout waits to be sent; null: not read since the worker woke
let sendingLogout = null;
// Read as the worker wakes: the requests after that need not wait for it.
caches.match(LOGOUT_KEY, { cacheName: META }).then((kept) => {
  if (logoutKept === null) logoutKept = Boolean(kept);
}, () => {});

async function logOutOffline(action, token) {
  if (sendingLogout) await sendingLogout; // done with, so that it does not say "none waits"
  const meta = await caches.open(META);
  await meta.put(LOGOUT_KEY, new Response(JSON.stringify({ action, token })));
  logoutKept = true;
  await loggedOut();
  // Every open page, this person's until now, shown again: as the site logged out.
  const windows = await self.clients.matchAll({ type: "window" });
  await Promise.all(windows.map((client) => client.navigate(client.url).catch(() => {})));
}

// The kept logout, sent first: true once the server has it (or none waits), false while the
// connection is not back.
function logoutFirst() {
  if (logoutKept === false) return Promise.resolve(true);
  if (!sendingLogout) {
    const done = () => { sendingLogout = null; };
    sendingLogout = sendLogout();
    sendingLogout.then(done, done);
  }
  return sendingLogout;
}

async function sendLogout() {
  const meta = await caches.open(META);
  const kept = await meta.match(LOGOUT_KEY);
  if (kept) {
    const { action, token } = await kept.json();
    try {
      const reply = await postLogout(action, token);
      // Refused: the page's token is from before a login in another tab, which changed the
      // CSRF cookie; the cookie's own is the one of now.
      const now = reply.status === 403 && (await csrfCookie());
      if (now) await postLogout(action, now);
    } catch (error) {
      return false;
    }
    await meta.delete(LOGOUT_KEY);
  }
  logoutKept = false;
  return true;
}

function postLogout(action, token) {
  return fetch(action, {
    method: "POST",
    body: new URLSearchParams({ csrfmiddlewaretoken: token }),
    credentials: "same-origin",
    redirect: "manual", // its redirect to the login page says it is done
    signal: AbortSignal.timeout(PAGE_TIMEOUT),
  });
}

async function csrfCookie() {
  if (!self.cookieStore) return "";
  const found = await self.cookieStore.get("csrftoken").catch(() => null);
  return found ? found.value : "";
}

// --- What pages tell the worker ------------------------------------------------------------

// A page the worker did not see come (the first one, before the worker took over; a sheet
// changed by the outbox's sends): fetched again for its copy.
async function keepNow(path) {
  const url = new URL(path, self.location.origin);
  if (url.origin !== self.location.origin || !isKept(url)) return;
  await learnPage(url, await fetch(url, { credentials: "same-origin" }));
}

self.addEventListener("message", (event) => {
  const message = event.data || {};
  let work = null;
  const here = (url) => new URL(url, self.location.origin).origin === self.location.origin;
  if (message.type === "logout" && message.offline) {
    if (typeof message.action === "string" && here(message.action)) {
      work = logOutOffline(message.action, String(message.token || ""));
    }
  } else if (message.type === "logout") work = loggedOut();
  else if (message.type === "online") work = logoutFirst();
  else if (message.type === "shell" && Array.isArray(message.urls)) {
    const urls = message.urls.filter((url) => isStatic(new URL(url, self.location.origin)));
    work = logoutFirst().then((sent) => sent && keepShell(urls));
  } else if (message.type === "keep" && typeof message.url === "string") {
    // Only a page the worker does not control asks: one that loaded while it activated, after
    // its claim, which it claims now (else it would wait for its next page to be controlled).
    const claimed = self.clients.claim();
    work = claimed.then(logoutFirst).then((sent) => sent && keepNow(message.url));
  }
  if (work) event.waitUntil(work.catch(() => {}));
});

// --- Background Sync: the outbox sent while no page is open ------------------------------

async function sendOutbox() {
  if (!(await logoutFirst())) throw new Error("the logout made offline goes first");
  await Sender.sendAll();
  const key = await user();
  const left = (await Store.entries()).filter(
    (item) => item.user === key && item.state === Store.WAITING
  );
  // Still waiting (the connection is not back): the browser tries this sync again later.
  if (left.length) throw new Error("the outbox is not sent yet");
}

Sender.user = async () => (await user()) || null;
Sender.ask = () => null; // nobody to ask: a duplicate waits on the sheet with its question
self.addEventListener("sync", (event) => {
  if (event.tag === Sender.SYNC_TAG) event.waitUntil(sendOutbox());
});
