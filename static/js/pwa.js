// The installable site: the service worker (/sw.js) caches the static files and shows the
// offline page when a page can't be reached.
(function () {
  "use strict";
  if ("serviceWorker" in navigator) {
    window.addEventListener("load", () => {
      navigator.serviceWorker.register("/sw.js").catch(() => undefined); // the site works without it
    });
  }
})();
