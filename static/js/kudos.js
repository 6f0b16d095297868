// Kudos on every page of a signed-in player: badge toasts leave after a while (also when
// motion is reduced and their fade doesn't run), and the invite link copies.
(() => {
  // The page's language (Django's JavaScript catalogue, /jsi18n/<lang>/); as written without it.
  const gettext = window.gettext || ((s) => s);
  const toasts = document.getElementById("kudos-toasts");
  if (toasts) {
    const expire = (toast) => setTimeout(() => toast.remove(), 9000);
    toasts.querySelectorAll(".badge-toast").forEach(expire);
    new MutationObserver((changes) => {
      changes.forEach((change) =>
        change.addedNodes.forEach((node) => {
          if (node.classList && node.classList.contains("badge-toast")) expire(node);
        }),
      );
    }).observe(toasts, { childList: true });
  }
  document.addEventListener("click", (event) => {
    const button = event.target.closest("[data-copy-text]");
    if (!button || !navigator.clipboard) return;
    navigator.clipboard.writeText(button.dataset.copyText).then(() => {
      button.textContent = gettext("Copied");
    });
  });
})();
