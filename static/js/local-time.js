// Moments the server writes in UTC (chronicle/templatetags/moments.py), rewritten in the
// reader's time zone, which only the browser knows, and in the language of the text
// around them. Without this script the UTC text stays, and says it is UTC.
(function () {
  "use strict";
  const STYLES = {
    datetime: { dateStyle: "medium", timeStyle: "short" },
    time: { timeStyle: "short" },
  };

  function localize(root) {
    for (const moment of root.querySelectorAll("time[data-local]")) {
      const when = new Date(moment.dateTime);
      const style = STYLES[moment.dataset.local];
      if (Number.isNaN(when.getTime()) || !style) continue;
      const lang = moment.closest("[lang]")?.lang || undefined;
      moment.textContent = new Intl.DateTimeFormat(lang, style).format(when);
    }
  }

  document.addEventListener("DOMContentLoaded", () => localize(document));
  // A fragment htmx swapped in (the session control on the table page).
  document.addEventListener("htmx:load", (event) => localize(event.detail.elt));
})();
