// The browser edition's service worker, in place of JupyterLite's own (lite/build.py writes it into
// the site with the list of files and the build's version filled in).
//
// Two jobs. JupyterLite's: pass the kernel's file requests (/api/drive) and input requests
// (/api/stdin/) to the page over a BroadcastChannel, and answer the heartbeat, exactly as
// JupyterLite 0.8.6's worker does. Ours: keep the whole site in one cache named after the build,
// filled when the worker installs, so that a reload works with the serving laptop gone, and
// answer from that cache first, so that a room's reloads cost the laptop nothing.
"use strict";

const VERSION = "__VERSION__";
const FILES = __FILES__;
const CACHE = `react-course-${VERSION}`;
const channel = new BroadcastChannel("/sw-api.v1");

self.addEventListener("install", (event) => {
  self.skipWaiting();
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(FILES.map((f) => new URL(f, self.registration.scope)))));
});

self.addEventListener("activate", (event) => {
  const old = caches.keys().then((names) => Promise.all(
    names.filter((name) => name !== CACHE).map((name) => caches.delete(name))));
  event.waitUntil(old.then(() => self.clients.claim()));
});

self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (url.pathname.endsWith("/api/service-worker-heartbeat")) {
    event.respondWith(new Response("ok"));
  } else if (url.origin === location.origin && (url.pathname.includes("/api/drive") || url.pathname.includes("/api/stdin/"))) {
    event.respondWith(toThePage(event.request, url));
  } else if (event.request.method === "GET" && url.origin === location.origin) {
    event.respondWith(cacheFirst(event));
  }
});

// A file of the site: from the cache; else from the server, kept for next time.
// Pages are matched without their query (?path=...), which only the page reads.
async function cacheFirst(event) {
  const cache = await caches.open(CACHE);
  const page = event.request.mode === "navigate";
  const kept = await cache.match(event.request, { ignoreSearch: page });
  if (kept) {
    return kept;
  }
  let answer;
  try {
    answer = await fetch(event.request);
  } catch (offline) {  // the laptop is gone: the same file under another query is as good
    return (await cache.match(event.request, { ignoreSearch: true })) ?? Response.error();
  }
  if (answer.ok && !page) {
    event.waitUntil(cache.put(event.request, answer.clone()));
  }
  return answer;
}

// The kernel's request, answered by whichever page of this browser holds the drive.
async function toThePage(request, url) {
  const message = await request.json();
  const requestId = message.requestId ?? crypto.randomUUID();
  message.requestId = requestId;
  message.pathname = url.pathname;
  const answer = new Promise((resolve) => {
    const listen = (event) => {
      const data = event.data;
      if (data.browsingContextId === message.browsingContextId && data.requestId === requestId) {
        channel.removeEventListener("message", listen);
        resolve(new Response(JSON.stringify(data.response)));
      }
    };
    channel.addEventListener("message", listen);
  });
  channel.postMessage(message);
  return answer;
}
