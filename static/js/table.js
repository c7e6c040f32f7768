// Reconnect quickly after a dropped socket (a server restart, a phone waking up):
// 0.5 s, 1 s, 2 s ... capped at 8 s, with jitter so a restarted server is not stampeded.
document.addEventListener("DOMContentLoaded", function () {
  if (!window.htmx) return;
  // A refused form comes back as 422 with its errors: swap it in like a success.
  htmx.config.responseHandling = [{ code: "422", swap: true }].concat(
    htmx.config.responseHandling
  );
  htmx.config.wsReconnectDelay = function (retryCount) {
    var delay = Math.min(500 * Math.pow(2, retryCount), 8000);
    return delay / 2 + (Math.random() * delay) / 2;
  };
});

// Mark the page while its socket is down, so nobody trusts a stale view.
document.addEventListener("htmx:wsOpen", function () {
  document.body.classList.remove("offline");
  document.body.dataset.socket = "open";
});
document.addEventListener("htmx:wsClose", function () {
  document.body.classList.add("offline");
  document.body.dataset.socket = "closed";
});

// A form whose result arrives over the socket answers 204: clear what was sent (the
// note), keep the choices (kind, dice) for the next roll.
document.addEventListener("htmx:afterRequest", function (event) {
  var form = event.detail.elt;
  if (event.detail.xhr.status !== 204 || !form.dataset || !form.dataset.clearOnSuccess) return;
  form.dataset.clearOnSuccess.split(" ").forEach(function (name) {
    if (form.elements[name]) form.elements[name].value = "";
  });
});
