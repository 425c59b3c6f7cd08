// Scorebook's service worker (issue 15), served at /sw.js for the whole site.
//
// - The app shell (CSS, htmx, scripts, icons, the offline page) is kept at install and
//   whenever a page names its static files; static files are served from it at once and
//   refreshed behind (their names carry a hash in production).
// - Pages: the network first; when it fails or is slow, the copy last seen of my clubs, a
//   club's home, a sheet or the hand form, kept per user, then /offline/. Whose pages: the
//   user named in the last page the network answered (<body data-user>, "" logged out); a
//   copy is kept under the user its page names and shown only while that user is the one
//   and his login lasts (<body data-user-expires>, kept in the copy): another user or a
//   logged-out visitor never gets it. A page for another user or for nobody drops the copies
//   of the one before at once, and so does logging out (offline.js says so). A page shown
//   from a copy (or the offline page) never changes whose pages they are.
// - Background Sync: the outbox (outbox.js, imported from the address the page registered
//   this worker with) is sent from here too, in order, under the same lock as the pages.
"use strict";

const VERSION = "1";
const OFFLINE_URL = "/offline/";
const PAGES = "scorebook-pages:"; // + the user's key
const META = "scorebook-meta";
const USER_KEY = "/__scorebook/user";
const PAGE_TIMEOUT = 4000; // ms before a kept page is shown instead of waiting on the network
const SHELL_SIZE = 60; // files; old versions of static files drop out first
// Pages worth having without a connection: my clubs (where the installed app opens), a club's
// home, a sheet and its hand form.
const KEPT_PAGES = [
  /^\/$/,
  /^\/c\/[^/]+\/$/,
  /^\/c\/[^/]+\/sessions\/\d+\/sheet\/$/,
  /^\/c\/[^/]+\/sessions\/\d+\/hands\/new\/$/,
];

// The outbox's sender, from the address offline.js registered this worker with (its name
// carries a hash in production; a new one installs a new worker).
const outboxScript = new URL(self.location.href).searchParams.get("outbox");
const SHELL = "scorebook-shell:" + VERSION + ":" + (outboxScript || "");
if (outboxScript && isStatic(new URL(outboxScript, self.location.origin))) {
  importScripts(outboxScript);
}
const Outbox = self.ScorebookOutbox;

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

// --- The app shell ---------------------------------------------------------------------

async function keepShell(urls) {
  const cache = await caches.open(SHELL);
  await Promise.all(urls.map(async (url) => {
    if (!(await cache.match(url))) await cache.add(url).catch(() => {});
  }));
  const keys = await cache.keys();
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
  await keepShell(named.concat(outboxScript ? [outboxScript] : []));
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

async function offlinePage() {
  return (await caches.match(OFFLINE_URL, { cacheName: SHELL })) || Response.error();
}

const isKept = (url) => KEPT_PAGES.some((pattern) => pattern.test(url.pathname));

// Learn whose pages they are from a page the network answered, and keep a copy of it as its
// user saw it: a full page of a logged-in user, never a redirect (to the login page) or an
// error.
async function learnPage(url, response) {
  const type = response.headers.get("Content-Type") || "";
  if (!response.ok || response.type !== "basic" || !type.startsWith("text/html")) return;
  const key = userIn(await response.clone().text());
  if (key === null) return;
  await setUser(key);
  if (!key || !isKept(url) || response.redirected) return;
  const cache = await caches.open(PAGES + key);
  await cache.put(pageKey(url), response);
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

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return; // saves go to the server (the outbox keeps them)
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") event.respondWith(page(event, url));
  else if (isStatic(url)) event.respondWith(staticFile(event));
});

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
  if (message.type === "logout") work = setUser("").then(() => dropPages(""));
  else if (message.type === "shell" && Array.isArray(message.urls)) {
    work = keepShell(message.urls.filter((url) => isStatic(new URL(url, self.location.origin))));
  } else if (message.type === "keep" && typeof message.url === "string") {
    work = keepNow(message.url);
  }
  if (work) event.waitUntil(work.catch(() => {}));
});

// --- Background Sync: the outbox sent while no page is open ------------------------------

async function sendOutbox() {
  await Outbox.sendAll();
  const key = await user();
  const left = (await Outbox.entries()).filter(
    (item) => item.user === key && item.state === Outbox.WAITING
  );
  // Still waiting (the connection is not back): the browser tries this sync again later.
  if (left.length) throw new Error("the outbox is not sent yet");
}

if (Outbox) {
  Outbox.user = async () => (await user()) || null;
  Outbox.ask = () => null; // nobody to ask: a duplicate waits on the sheet with its question
  self.addEventListener("sync", (event) => {
    if (event.tag === Outbox.SYNC_TAG) event.waitUntil(sendOutbox());
  });
}
