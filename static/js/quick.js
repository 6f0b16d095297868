// Quick play's waiting page: "Keep waiting" puts the offer away for as long as the page is
// open (a mark on the body, so the socket's redrawn fragments stay without it too).
(function () {
  "use strict";
  document.addEventListener("click", (event) => {
    if (event.target.closest("[data-keep-waiting]")) document.body.dataset.keepWaiting = "1";
  });
})();
