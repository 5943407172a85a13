import SiteCore

extension BuiltinTheme {
    /// `assets/sitegen-search.js`: search over a collection's static index (`search:` in site.yml),
    /// as an enhancement of a page that works without it. Markup it looks for:
    ///
    /// - `form[data-search]` with an `input[type=search]` and either `data-index="<index URL>"` or
    ///   scope radios `input[name=scope][data-index]` (one index per scope);
    /// - `[data-search-list]`: a server-rendered list whose `[data-search-url]` children are shown
    ///   or hidden (the page lists everything without JavaScript), or
    ///   `[data-search-results]`: an empty list the results are written into (text only through
    ///   `textContent`, never HTML);
    /// - optional `[data-search-status]` (live count, `{n}` in its `data-template`),
    ///   `[data-search-empty]` (shown for no match), `[data-search-warning]` (shown when an empty
    ///   query is submitted) and `[data-search-idle]` (shown only while the query is empty).
    ///   A form that is useless without the script is best hidden by `<noscript><style>` in the
    ///   head (hiding it until the script runs would move the page: a layout shift).
    ///
    /// Every word of the query must occur in an item's folded text (`SearchText.fold`).
    static let searchScript = """
        // sitegen search: filters a collection's static index as you type. See README "Search".
        (function () {
          'use strict';
          \(SearchText.browserFold)
          var cache = {};
          function load(url) {
            if (!cache[url]) cache[url] = fetch(url).then(function (r) { if (!r.ok) throw new Error(url + ': ' + \
        r.status); return r.json(); });
            return cache[url];
          }
          function matches(text, words) { for (var i = 0; i < words.length; i++) if (text.indexOf(words[i]) < 0) \
        return false; return true; }
          function setHidden(nodes, hidden) { nodes.forEach(function (n) { n.hidden = hidden; }); }
          function render(list, items) {
            list.replaceChildren();
            items.forEach(function (it) {
              var li = document.createElement('li'); li.className = 'search-result';
              var box = document.createElement(it.url ? 'a' : 'div'); box.className = 'search-result-link';
              if (it.url) box.href = it.url;
              if (it.image) {
                var img = document.createElement('img'); img.src = it.image.src; img.alt = ''; img.loading = 'lazy';
                if (it.image.width) { img.width = it.image.width; img.height = it.image.height; }
                box.appendChild(img);
              }
              var text = document.createElement('span'); text.className = 'search-result-text';
              var t = document.createElement('span'); t.className = 'search-result-title'; t.textContent = \
        it.title; text.appendChild(t);
              if (it.subtitle) { var s = document.createElement('span'); s.className = 'search-result-subtitle'; \
        s.textContent = it.subtitle; text.appendChild(s); }
              box.appendChild(text); li.appendChild(box); list.appendChild(li);
            });
          }
          document.querySelectorAll('form[data-search]').forEach(function (form) {
            var root = form.closest('[data-search-scope]') || document;
            var input = form.querySelector('input[type=search]');
            var list = root.querySelector('[data-search-list]');
            var results = root.querySelector('[data-search-results]');
            var status = root.querySelector('[data-search-status]');
            var empty = root.querySelectorAll('[data-search-empty]');
            var warning = root.querySelectorAll('[data-search-warning]');
            var idle = root.querySelectorAll('[data-search-idle]');
            function indexURL() {
              var scope = form.querySelector('input[name=scope]:checked');
              return scope ? scope.getAttribute('data-index') : form.getAttribute('data-index');
            }
            var run = 0;
            function update() {
              var words = fold(input.value).split(' ').filter(Boolean);
              var mine = ++run;
              if (words.length) { setHidden(warning, true); input.removeAttribute('aria-invalid'); }
              load(indexURL()).then(function (index) {
                if (mine !== run) return;
                var found = words.length ? index.items.filter(function (it) { return matches(it.text, words); }) \
        : index.items;
                if (list) {
                  var shown = {};
                  found.forEach(function (it) { shown[it.url] = true; });
                  list.querySelectorAll('[data-search-url]').forEach(function (el) { el.hidden = \
        !shown[el.getAttribute('data-search-url')]; });
                }
                if (results) { render(results, words.length ? found : []); results.hidden = !words.length; }
                setHidden(idle, words.length > 0);
                setHidden(empty, !(words.length && found.length === 0));
                if (status) status.textContent = words.length ? (status.getAttribute('data-template') || \
        '{n}').replace('{n}', found.length) : '';
              }).catch(function (e) { if (status) status.textContent = String(e.message || e); });
            }
            input.addEventListener('input', update);
            form.querySelectorAll('input[name=scope]').forEach(function (r) { r.addEventListener('change', update); });
            form.addEventListener('submit', function (ev) {
              ev.preventDefault();
              if (!fold(input.value)) { setHidden(warning, false); input.setAttribute('aria-invalid', 'true'); \
        input.focus(); }
              update();
            });
            var q = new URLSearchParams(location.search).get('q');
            if (q) input.value = q;
            if (input.value) update();
          });
        })();

        """
}
