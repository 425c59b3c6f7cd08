// The phone's outbox (issue 15), its store: a hand saved on this phone stays in IndexedDB
// until the server has recorded it, and every page and the worker hear what changed in it.
//
// A plain script that defines one object, ScorebookStore: the pages load it with a script tag
// (templates/base.html), the service worker with importScripts (sw.js); the sender
// (sender.js) and the page's outbox (page.js, save.js) use it.
(function (global) {
  "use strict";

  const DB_NAME = "scorebook";
  const STORE = "outbox";
  const CHANNEL = "scorebook-outbox";
  // An entry's state, the outbox's own (kept with it):
  const WAITING = "waiting"; // sent by itself when the connection (or the login) is back
  const REFUSED = "refused"; // the server said no: the scorekeeper opens, resends or discards it
  // An entry's kind: a hand (none said, as before words were kept) or a player's word on a
  // hand, confirmed or disputed (word.js).
  const WORD = "word";

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

  // --- Telling every page what changed ----------------------------------------------------

  const channel = typeof BroadcastChannel === "function" ? new BroadcastChannel(CHANNEL) : null;
  const listeners = [];

  function changed(news) {
    if (channel) channel.postMessage(news); // the other tabs and the worker
    listeners.forEach((listener) => listener(news)); // this page: a channel skips its sender
  }
  if (channel) channel.onmessage = (event) => listeners.forEach((listener) => listener(event.data));

  global.ScorebookStore = {
    WAITING,
    REFUSED,
    WORD,
    entries: () => transact("readonly", (store) => store.getAll()),
    entry: (id) => transact("readonly", (store) => store.get(id)),
    put: (item) => transact("readwrite", (store) => store.put(item)),
    remove: (id) => transact("readwrite", (store) => store.delete(id)),
    changed,
    listen: (listener) => listeners.push(listener),
  };
})(self);
