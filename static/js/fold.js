// On a phone the table page opens folded: the roll in progress on top, every other
// section under its heading, so the page is a few screens and not a long scroll that
// buries the roll. A wide screen keeps them all open, as the server drew them.
"use strict";
if (window.matchMedia("(max-width: 40rem)").matches) {
  for (const fold of document.querySelectorAll("details.fold[data-phone-folds]")) {
    fold.open = false;
  }
}
