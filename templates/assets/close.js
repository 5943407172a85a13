// A detail page (or a full-screen search) over a list: its close control and Escape return to the
// list where the reader left it, at the card they tapped, as the apps do. Without this file the
// close control is a plain link to the list.
//
// Markup: one `a[data-close]` whose href is the list; optional `data-close-card="<id>"`, the id of
// this item's card on the list (where the list gives its cards ids), to show it when there is no
// list to go back to; optional `data-close-also="<path>"`, another page the reader may have come
// from (the search screen a result was tapped on), which history.back() returns to as well.
(function () {
  'use strict';
  var close = document.querySelector('a[data-close]');
  if (!close) return;
  var KEY = 'sitegen-close';
  var list = new URL(close.href, location.href);
  list.hash = '';
  var card = close.getAttribute('data-close-card');
  var also = close.getAttribute('data-close-also');
  var alsoPath = also ? new URL(also, location.href).pathname : null;

  function samePath(url) {
    try {
      var u = new URL(url, location.href);
      return u.origin === location.origin ? u.pathname : null;
    } catch (e) { return null; }
  }
  // The list's first page or one of its numbered pages (`/bounties/page/2/`).
  function isList(path) {
    if (path === null) return false;
    if (path === alsoPath) return true;
    if (path.slice(0, list.pathname.length) !== list.pathname) return false;
    return /^(page\/\d+\/)?$/.test(path.slice(list.pathname.length));
  }
  function stored() {
    try { return JSON.parse(sessionStorage.getItem(KEY) || 'null'); } catch (e) { return null; }
  }

  // How many history entries back the list is: 1 when this page was opened from it, n + 1 when
  // opened from a page of the same list that was n entries past it (a prev/next link), 0 when
  // unknown (a shared link, a bookmark, another section). Kept in the entry's history.state, so a
  // reload or a return through Back/Forward finds it again.
  var depth = history.state && typeof history.state.closeDepth === 'number' ? history.state.closeDepth : -1;
  if (depth < 0) {
    var from = samePath(document.referrer);
    var last = stored();
    if (isList(from)) depth = 1;
    else if (last && from !== null && last.path === from && last.list === list.pathname && last.depth > 0) depth = last.depth + 1;
    else depth = 0;
    try {
      var state = history.state && typeof history.state === 'object' ? Object.assign({}, history.state) : {};
      state.closeDepth = depth;
      history.replaceState(state, '');
    } catch (e) { /* a state that cannot be cloned: keep the depth for this visit only */ }
  }
  // The page shown now, for the next page of the list this one links to.
  function remember() {
    try { sessionStorage.setItem(KEY, JSON.stringify({ path: location.pathname, list: list.pathname, depth: depth })); } catch (e) { }
  }
  remember();
  addEventListener('pageshow', function (e) { if (e.persisted) remember(); });

  function leave() {
    if (depth > 0 && depth < history.length) history.go(-depth);
    else location.href = card ? list.href + '#' + encodeURIComponent(card) : close.href;
  }
  close.addEventListener('click', function (e) {
    if (e.button !== 0 || e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return; // a new tab or window: the link's own
    e.preventDefault();
    leave();
  });
  document.addEventListener('keydown', function (e) {
    if (e.key !== 'Escape' || e.defaultPrevented || e.isComposing || e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
    var t = e.target;
    // Escape in a field with text clears it first (as iOS's search field's clear button does);
    // in an empty field, as anywhere else, it closes.
    if (t && (t.type === 'search' || t.type === 'text') && t.value) {
      e.preventDefault();
      t.value = '';
      t.dispatchEvent(new Event('input', { bubbles: true }));
      return;
    }
    e.preventDefault();
    leave();
  });
})();
