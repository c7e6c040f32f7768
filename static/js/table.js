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

// A sheet's or the flow panel's signal (pushed when it changed) fetches it only when this
// page's copy is older than the pushed revision and no request of it is in flight: the
// sender already holds its own answer. Decided here rather than in an hx-trigger filter:
// filters are evaluated code, which the Content-Security-Policy does not allow.
//
// A request in flight may have been answered before the signalled change (the GM taps a
// coin on Ada's sheet as Ada marks stress): its answer then shows the older sheet. So the
// signal waits for the requests out, and fetches once they are home if the sheet is
// still behind. Requests are counted rather than spotted by their htmx-request class:
// for a moment after a swap htmx copies the old element's classes onto the new one.
(function () {
  var out = {}; // sheet or panel id → how many of its requests are out
  var waiting = {}; // sheet or panel id → the latest signal that came while they were

  document.addEventListener("htmx:beforeRequest", function (event) {
    var id = event.detail.target && event.detail.target.id;
    if (!id) return;
    out[id] = (out[id] || 0) + 1;
    // After the answer's swap (htmx swaps on load, which comes before loadend).
    event.detail.xhr.addEventListener("loadend", function () {
      out[id] -= 1;
      if (!out[id] && waiting[id]) fetchIfBehind(id);
    });
  });

  function fetchIfBehind(target) {
    var signal = waiting[target];
    delete waiting[target];
    var sheet = document.getElementById(target);
    // A newer signal, once here, decides for itself.
    if (!sheet || !signal.isConnected || sheet.dataset.revision === signal.dataset.revision) {
      return;
    }
    htmx.ajax("GET", signal.getAttribute("hx-get"), {
      source: signal,
      target: "#" + target,
      swap: "outerHTML",
    });
  }

  document.addEventListener("htmx:confirm", function (event) {
    var signal = event.detail.elt;
    var target = signal.dataset && (signal.dataset.sheet || signal.dataset.panel);
    if (!target) return;
    var sheet = document.getElementById(target);
    if (!sheet || sheet.dataset.revision === signal.dataset.revision) {
      event.preventDefault();
    } else if (out[target]) {
      waiting[target] = signal;
      event.preventDefault();
    }
  });
})();

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

// Keep a person's place across a redraw. Live panels (the shared roll, the phase) are
// swapped whole whenever anyone at the table acts: a push makes every page fetch its own
// panel, and each person's own answers swap it too. Before a swap we note where the focus
// is and every field changed but not sent; after it we put both back into the new panel.
//
// Restoring beats holding the redraw back while someone types: a held-back panel would
// show a stale roll (the GM typing a consequence would miss the player's resistance) and
// could post against a step that has moved on. Fields are matched by id, or else by
// their place (nearest ancestor id), form and name, so a field the new panel no longer
// has (its step is over) is simply gone. The form this response answers was sent: its
// fields start fresh, unless the server refused it, and then nothing typed is lost. When
// the focused control is gone (the Assist button once assisted), focus moves to its
// nearest surviving container rather than falling to <body>, so Tab goes on from there.
(function () {
  var FIELDS = "input, select, textarea";
  var MATCHABLE = "input, select, textarea, button, summary, details, a[href]";
  var pendingSwap = null;
  var pendingOob = [];

  function scopeOf(el) {
    for (var node = el.parentElement; node; node = node.parentElement) {
      if (node.id) return node.id;
    }
    return "";
  }

  function formKey(form) {
    if (!form) return "";
    if (form.id) return "#" + form.id;
    var url = form.getAttribute("hx-post") || form.getAttribute("action") || "";
    return scopeOf(form) + ">" + url;
  }

  function keyOf(el) {
    if (el.id) return "#" + el.id;
    var form = el.form || el.closest("form");
    var base = scopeOf(el) + "|" + formKey(form) + "|";
    if (el.name) {
      var many = el.type === "checkbox" || el.type === "radio";
      return base + el.name + (many ? "=" + el.value : "");
    }
    if (el.tagName === "DETAILS") {
      var summary = el.querySelector("summary");
      return base + "details:" + (summary ? summary.textContent.trim() : "");
    }
    if (el.tagName === "A") return base + "a:" + el.getAttribute("href");
    // By its accessible name: buttons alike but for their labels ("Clear Bruised",
    // "Clear Winded", each drawn as ×) must not be taken for one another.
    return base + el.tagName + ":" + (el.getAttribute("aria-label") || el.textContent.trim());
  }

  function findByKey(key, scope) {
    if (key.charAt(0) === "#") return document.getElementById(key.slice(1));
    var root = (scope && document.getElementById(scope)) || document;
    var all = root.querySelectorAll(MATCHABLE);
    for (var i = 0; i < all.length; i++) {
      if (keyOf(all[i]) === key) return all[i];
    }
    return null;
  }

  function defaultIndex(select) {
    var index = select.multiple ? -1 : 0;
    for (var i = 0; i < select.options.length; i++) {
      if (select.options[i].defaultSelected) index = i;
    }
    return index;
  }

  function changed(el) {
    if (el.disabled || el.readOnly) return false;
    if (el.type === "checkbox" || el.type === "radio") return el.checked !== el.defaultChecked;
    if (el.tagName === "SELECT") {
      if (!el.multiple) return el.selectedIndex !== defaultIndex(el);
      return Array.prototype.some.call(el.options, function (o) {
        return o.selected !== o.defaultSelected;
      });
    }
    if (/^(hidden|submit|button|reset|image|file)$/.test(el.type)) return false;
    return el.value !== el.defaultValue;
  }

  // A menu's choice is kept by the options' values, not their places: a redrawn menu may
  // have gained an option (the clock just added, offered as the one a new clock unlocks).
  function valueOf(el) {
    if (el.type === "checkbox" || el.type === "radio") return el.checked;
    if (el.tagName === "SELECT") {
      return Array.prototype.filter
        .call(el.options, function (o) {
          return o.selected;
        })
        .map(function (o) {
          return o.value;
        });
    }
    return el.value;
  }

  function setValue(el, value) {
    if (el.type === "checkbox" || el.type === "radio") el.checked = value;
    else if (el.tagName === "SELECT") {
      var offered = Array.prototype.some.call(el.options, function (o) {
        return value.indexOf(o.value) >= 0;
      });
      if (!offered) return; // the choice is gone from the menu: leave its default
      Array.prototype.forEach.call(el.options, function (o) {
        o.selected = value.indexOf(o.value) >= 0;
      });
    } else el.value = value;
  }

  // What a form held when it was sent, by field: what was typed after that (the next
  // clock's name, while the answer to the last one is on its way) is not what the answer
  // answers, and is kept like any other unsent field.
  function sentValues(form) {
    var values = {};
    form.querySelectorAll(FIELDS).forEach(function (el) {
      values[keyOf(el)] = JSON.stringify(valueOf(el));
    });
    return values;
  }

  function typedSince(el, sent) {
    var before = sent && sent[keyOf(el)];
    return before !== undefined && before !== JSON.stringify(valueOf(el));
  }

  // `sent` is the form this response answers, `refused` whether the server said no, and
  // `values` what the form held when it was sent.
  function capture(target, sent, refused, values) {
    var skip = sent && !refused ? formKey(sent) : null;
    var state = { fields: [], open: [], focus: null, fallbacks: [] };
    target.querySelectorAll(FIELDS).forEach(function (el) {
      if (!changed(el)) return;
      if (skip && formKey(el.form) === skip && !typedSince(el, values)) return;
      state.fields.push({ key: keyOf(el), scope: scopeOf(el), value: valueOf(el) });
    });
    target.querySelectorAll("details[open]").forEach(function (el) {
      if (skip && sent.isConnected && el.contains(sent)) return;
      state.open.push({ key: keyOf(el), scope: scopeOf(el) });
    });
    var active = document.activeElement;
    if (active && active !== document.body && target.contains(active)) {
      state.focus = { key: keyOf(active), scope: scopeOf(active) };
      if (typeof active.selectionStart === "number") {
        state.focus.start = active.selectionStart;
        state.focus.end = active.selectionEnd;
      }
      for (var node = active.parentElement; node; node = node.parentElement) {
        if (node.id) state.fallbacks.push(node.id);
        if (node === target) break;
      }
    }
    return state;
  }

  function focusHere(el) {
    el.focus({ preventScroll: true });
    if (document.activeElement !== el) {
      // A container (the roll, the panel) takes focus only from script.
      el.setAttribute("tabindex", "-1");
      el.focus({ preventScroll: true });
    }
    return document.activeElement === el;
  }

  function restore(state) {
    state.fields.forEach(function (field) {
      var el = findByKey(field.key, field.scope);
      if (el && el.matches(FIELDS) && !changed(el)) setValue(el, field.value);
    });
    state.open.forEach(function (details) {
      var el = findByKey(details.key, details.scope);
      if (el && el.tagName === "DETAILS") el.open = true;
    });
    if (!state.focus) return;
    var active = document.activeElement;
    if (active && active !== document.body && active.isConnected) {
      var same = findByKey(state.focus.key, state.focus.scope);
      if (active !== same) return; // focus already went somewhere on purpose
    }
    var el = findByKey(state.focus.key, state.focus.scope);
    if (el && focusHere(el)) {
      if (state.focus.start !== undefined && el.setSelectionRange) {
        try {
          el.setSelectionRange(state.focus.start, state.focus.end);
        } catch (e) {
          // Some input types (number, email) have no selection.
        }
      }
      return;
    }
    for (var i = 0; i < state.fallbacks.length; i++) {
      var container = document.getElementById(state.fallbacks[i]);
      if (container && focusHere(container)) return;
    }
  }

  // Every step answers its sender and also signals every page, the sender's included,
  // to fetch the panel again. A refetch that brings exactly what the panel shows (bar
  // the per-render CSRF masks) is dropped: redrawing for nothing would only risk eating
  // a click that lands between the two swaps.
  var shown = {};
  function unmasked(html) {
    return String(html).replace(/name="csrfmiddlewaretoken" value="[^"]*"/g, "");
  }

  // Answers for one panel cross on the way back whenever two are out at once (a step's
  // answer and a push's refetch, or two pushes' refetches). htmx aims each answer at the
  // element that was there when its request left, so the first answer home replaces
  // that element and every later one, finding it gone, was thrown away: an older answer
  // that came home first left the panel stale until the next push, controls included.
  // So answers are ordered by when their requests left: one that left later than the
  // answer the panel shows goes into the panel as it is now; one that left earlier is
  // dropped, as anything it could add is on its way in a later one.
  var sent = 0;
  var shownSent = {};
  var watched = new WeakSet();

  document.addEventListener("htmx:beforeRequest", function (event) {
    var target = event.detail.target;
    event.detail.xhr.tableSent = ++sent;
    var elt = event.detail.elt;
    var form = elt && elt.tagName === "FORM" ? elt : elt && elt.closest && elt.closest("form");
    if (form) event.detail.xhr.tableSentValues = sentValues(form);
    // htmx announces the answer on the element it aims at; once that element is
    // replaced, the event no longer reaches the document, so listen on it directly.
    if (target && !watched.has(target)) {
      watched.add(target);
      target.addEventListener("htmx:beforeSwap", beforeSwap);
    }
  });

  function beforeSwap(event) {
    var detail = event.detail;
    pendingSwap = null;
    if (!detail.shouldSwap || !detail.target) return;
    var target = detail.target;
    var config = detail.requestConfig || {};
    if (target.id) {
      var order = detail.xhr.tableSent || 0;
      if (order < (shownSent[target.id] || 0)) {
        detail.shouldSwap = false;
        return;
      }
      if (!target.isConnected) target = document.getElementById(target.id);
      if (!target) {
        detail.shouldSwap = false;
        return;
      }
      detail.target = target;
      shownSent[target.id] = order;
      var html = unmasked(detail.serverResponse);
      if (config.verb === "get" && shown[target.id] === html) {
        detail.shouldSwap = false;
        return;
      }
      shown[target.id] = html;
    } else if (!target.isConnected) {
      return; // nowhere to put it, and nothing on the page to keep
    }
    var elt = config.elt;
    var form = null;
    if (config.verb !== "get" && elt) form = elt.tagName === "FORM" ? elt : elt.closest("form");
    pendingSwap = capture(target, form, detail.xhr.status >= 400, detail.xhr.tableSentValues);
  }

  document.addEventListener("htmx:afterSwap", function () {
    if (!pendingSwap) return;
    var state = pendingSwap;
    pendingSwap = null;
    restore(state);
  });
  // Pushed fragments (a clock someone ticked while the GM edits its name) likewise.
  document.addEventListener("htmx:oobBeforeSwap", function (event) {
    if (event.detail.shouldSwap && event.detail.target) {
      pendingOob.push(capture(event.detail.target, null, false));
    }
  });
  document.addEventListener("htmx:oobAfterSwap", function () {
    var states = pendingOob;
    pendingOob = [];
    states.forEach(restore);
  });
})();

// A push goes to every open page of the table, and each page holds only some of the
// fragments (the phase page has no clocks, the table page no phase panel). Pushed
// fragments with no place on this page are dropped before htmx looks for their
// targets: it would swap nothing, but report each one as a console error. The body
// names this extension (hx-ext), so every page's socket passes its messages through it.
if (window.htmx) {
  htmx.defineExtension("push-present", {
    transformResponse: function (text, xhr) {
      if (xhr) return text; // an HTTP answer goes where its request said
      var template = document.createElement("template");
      template.innerHTML = text;
      Array.prototype.slice.call(template.content.children).forEach(function (el) {
        if (!hasTarget(el)) el.remove();
      });
      return template.innerHTML;
    },
  });
}

function hasTarget(el) {
  var oob = el.getAttribute("hx-swap-oob") || "true";
  var colon = oob.indexOf(":");
  var selector = colon > 0 ? oob.slice(colon + 1) : "#" + CSS.escape(el.id);
  try {
    return document.querySelector(selector) !== null;
  } catch (e) {
    return true; // an extended htmx selector ("closest ..."): let htmx resolve it
  }
}

// A click is a press and a release on the same element. A push that redraws a panel in
// between replaces the pressed button, and the click never happens. So while a pointer is
// down, pushed frames wait; they go in, in order, once it is up and the click has run, or
// after HOLD_MS if it stays down, so that a resting finger never freezes the page. Typing
// needs no such wait: redraws keep what was typed (above).
(function () {
  var HOLD_MS = 1500;
  var sockets = new WeakMap(); // page element → its open WebSocket
  var held = [];
  var pressed = false;
  var replaying = false;
  var timer = null;

  document.addEventListener("htmx:wsOpen", function (event) {
    sockets.set(event.target, event.detail.event.target);
  });

  document.addEventListener("htmx:wsBeforeMessage", function (event) {
    // Once one frame waits, the next ones wait behind it, or they would overtake it.
    if (replaying || (!pressed && held.length === 0)) return;
    var socket = sockets.get(event.target);
    if (!socket) return;
    event.preventDefault();
    held.push({ socket: socket, data: event.detail.message });
  });

  function release() {
    pressed = false;
    clearTimeout(timer);
    var waiting = held;
    held = [];
    replaying = true;
    try {
      // Through the socket's own listener, so each frame is swapped as if it came now.
      waiting.forEach(function (frame) {
        frame.socket.dispatchEvent(new MessageEvent("message", { data: frame.data }));
      });
    } finally {
      replaying = false;
    }
  }

  function press() {
    pressed = true;
    clearTimeout(timer);
    // A test on a loaded machine may need longer than a hand does.
    timer = setTimeout(release, window.tableHoldMs || HOLD_MS);
  }

  function releaseAfterClick() {
    // The click comes after the release in the same task: let it run first.
    if (pressed) setTimeout(release, 0);
  }

  document.addEventListener(
    "pointerdown",
    function (event) {
      if (event.button === 0) press();
    },
    true
  );
  document.addEventListener("pointerup", releaseAfterClick, true);
  document.addEventListener("pointercancel", releaseAfterClick, true);
  // Space presses a button on keydown and clicks it on keyup: the same gap, by keyboard.
  var SPACE_CLICKS = "button, summary, input[type=checkbox], input[type=radio], input[type=submit]";
  document.addEventListener(
    "keydown",
    function (event) {
      if (event.key !== " " || event.repeat || !event.target.matches) return;
      if (event.target.matches(SPACE_CLICKS)) press();
    },
    true
  );
  document.addEventListener(
    "keyup",
    function (event) {
      if (event.key === " ") releaseAfterClick();
    },
    true
  );
})();

// A Copy button beside a read-only link (the invite, the shared screen): it copies the
// field named by data-copy and says so in its own label for a moment.
document.addEventListener("click", function (event) {
  var button = event.target.closest && event.target.closest("button[data-copy]");
  if (!button) return;
  var field = document.getElementById(button.dataset.copy);
  if (!field) return;
  var done = function () {
    button.dataset.copied = "true";
    button.firstChild.textContent = "Copied";
    setTimeout(function () {
      button.firstChild.textContent = "Copy";
      delete button.dataset.copied;
    }, 2000);
  };
  if (navigator.clipboard && window.isSecureContext) {
    navigator.clipboard.writeText(field.value).then(done, function () {
      field.select();
    });
  } else {
    field.select();
    if (document.execCommand("copy")) done();
  }
});

// The downtime form shows only the fields of the chosen activity (each group names the
// activities it serves in data-activities); the others are hidden, and still sent as
// before, so the server reads the same form either way.
function showActivityFields(select) {
  var form = select.form;
  if (!form) return;
  form.querySelectorAll(".dt-fields").forEach(function (group) {
    group.hidden = group.dataset.activities.split(" ").indexOf(select.value) === -1;
  });
}
document.addEventListener("change", function (event) {
  if (event.target.matches && event.target.matches("select.dt-kind")) {
    showActivityFields(event.target);
  }
});
document.addEventListener("htmx:load", function (event) {
  event.detail.elt.querySelectorAll("select.dt-kind").forEach(showActivityFields);
});

// The wizard's "dots left" counts down as action dots are chosen (the budget comes from
// the page, which has it from the rules); the server counts again when the step is posted.
document.addEventListener("change", function (event) {
  var form = event.target.form;
  if (!form || !form.dataset.dotsBudget || !event.target.matches("input[data-dots]")) return;
  var spent = 0;
  form.querySelectorAll("input[data-dots]:checked").forEach(function (input) {
    spent += Number(input.value);
  });
  var left = Number(form.dataset.dotsBudget) - spent;
  var count = Math.abs(left);
  var dots = count === 1 ? " dot" : " dots";
  form.querySelector("#dots-left").textContent = count + dots + (left < 0 ? " too many" : " left");
});
