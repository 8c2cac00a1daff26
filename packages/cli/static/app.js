// progresscard live preview: renders the state pushed by the preview server over server-sent events.
// Card HTML is rendered and sanitized on the server; everything else is set as text here.
(function () {
  'use strict';
  var panelsEl = document.getElementById('panels');
  var runEl = document.getElementById('run');
  var connEl = document.getElementById('conn');
  var userEl = document.getElementById('user');
  var panels = {};
  var openFolds = {};

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function time(ms) {
    var d = new Date(ms);
    var pad = function (n, w) { return String(n).padStart(w || 2, '0'); };
    return pad(d.getHours()) + ':' + pad(d.getMinutes()) + ':' + pad(d.getSeconds()) + '.' + pad(d.getMilliseconds(), 3);
  }

  function renderRun(run) {
    runEl.textContent = '';
    var phase = el('span', 'phase ' + run.phase, run.phase);
    runEl.appendChild(phase);
    if (run.trace) runEl.appendChild(el('span', '', run.trace + (run.format ? ' (' + run.format + ')' : '')));
    if (run.speed) runEl.appendChild(el('span', 'muted', 'speed ' + (Math.round(run.speed * 100) / 100) + '× · tick ' + run.tickMs + ' ms'));
    if (run.eventsTotal) {
      var wrap = el('span', 'events');
      var bar = el('span', 'progress');
      var fill = el('i');
      fill.style.width = Math.round((100 * (run.eventsDone || 0)) / run.eventsTotal) + '%';
      bar.appendChild(fill);
      wrap.appendChild(bar);
      wrap.appendChild(document.createTextNode(' ' + (run.eventsDone || 0) + ' / ' + run.eventsTotal + ' events'));
      runEl.appendChild(wrap);
    }
    document.title = 'progresscard · ' + run.phase + (run.trace ? ' · ' + run.trace : '');
  }

  function panelFor(id, label) {
    if (panels[id]) return panels[id];
    var root = el('section', 'panel');
    root.dataset.channel = id;
    var head = el('div', 'panel-head');
    head.appendChild(el('h2', '', label));
    var counts = el('div', 'counts');
    head.appendChild(counts);
    var notice = el('div', 'notice');
    head.appendChild(notice);
    var chat = el('div', 'chat');
    var tl = el('div', 'timeline-wrap');
    tl.appendChild(el('h3', '', 'Update history'));
    var line = el('div', 'timeline');
    var calls = el('ul', 'calls');
    tl.appendChild(line);
    tl.appendChild(calls);
    root.appendChild(head);
    root.appendChild(chat);
    root.appendChild(tl);
    panelsEl.appendChild(root);
    panels[id] = { root: root, counts: counts, notice: notice, chat: chat, line: line, calls: calls };
    // A click on a card button goes to the emulator, which delivers the platform's callback to the app.
    chat.addEventListener('click', function (e) {
      var button = e.target.closest?.('button[data-button]');
      if (!button) return;
      var holder = button.closest('.card-holder');
      var form = button.closest('.form');
      var input = button.dataset.submit && form ? form.querySelector('input[data-input]') : null;
      button.disabled = true;
      notice.textContent = '…';
      fetch('/api/click', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ panel: id, card: holder.dataset.cardId, button: button.dataset.button, user: userEl.value, input: input ? input.value : undefined }),
      })
        .then(function (r) { return r.json(); })
        .then(function (result) {
          notice.className = 'notice ' + (result.ok ? 'ok' : 'bad');
          notice.textContent = (userEl.value || 'ou_preview_user') + ': ' + (result.message || (result.ok ? 'sent' : 'not sent'));
        })
        .catch(function () { notice.className = 'notice bad'; notice.textContent = 'click failed'; })
        .then(function () { button.disabled = false; });
    });
    return panels[id];
  }

  function renderCounts(node, c, baseUrl) {
    node.textContent = '';
    var add = function (label, value, cls) {
      var span = el('span', cls || '');
      span.appendChild(el('b', '', String(value)));
      span.appendChild(document.createTextNode(' ' + label + '  '));
      node.appendChild(span);
    };
    add('calls', c.calls);
    add('accepted', c.accepted);
    add('rejected', c.rejected, c.rejected ? 'bad' : '');
    add('rate-limited', c.rateLimited, c.rateLimited ? 'bad' : '');
    if (baseUrl) node.title = baseUrl;
  }

  function renderCards(p, panel) {
    // Remember which collapsible panels the user opened, so a live update does not close them.
    p.chat.querySelectorAll('details[data-key]').forEach(function (d) { openFolds[d.dataset.key] = d.open; });
    p.chat.textContent = '';
    if (!panel.cards.length) {
      p.chat.appendChild(el('div', 'empty', 'No card yet'));
      return;
    }
    panel.cards.forEach(function (card) {
      var holder = el('div', 'card-holder');
      holder.dataset.cardId = card.id;
      holder.dataset.state = card.state;
      holder.innerHTML = card.html; // server-rendered, sanitized
      holder.querySelectorAll('details').forEach(function (d, i) {
        var key = panel.id + ':' + card.id + ':' + i;
        d.dataset.key = key;
        if (key in openFolds) d.open = openFolds[key];
      });
      p.chat.appendChild(holder);
    });
  }

  function renderCalls(p, panel) {
    p.line.textContent = '';
    p.calls.textContent = '';
    var calls = panel.calls;
    if (!calls.length) return;
    var t0 = calls[0].at;
    var span = Math.max(1, calls[calls.length - 1].at - t0);
    calls.forEach(function (call) {
      var mark = el('i', call.rateLimited ? 'rate' : call.outcome === 'rejected' ? 'rejected' : '');
      mark.style.left = 'calc(' + ((100 * (call.at - t0)) / span).toFixed(2) + '% - 1px)';
      mark.title = '#' + call.seq + ' ' + call.route + ' ' + call.outcome + ' ' + call.status + (call.code !== undefined ? ' ' + call.code : '');
      p.line.appendChild(mark);
    });
    calls.slice(-40).reverse().forEach(function (call) {
      var cls = call.outcome === 'accepted' ? 'ok' : call.rateLimited ? 'rl' : 'no';
      var mark = call.outcome === 'accepted' ? '✓' : call.rateLimited ? '⏱' : '✗';
      var text = time(call.at) + ' ' + mark + ' #' + call.seq + ' ' + call.route + ' ' + call.status +
        (call.outcome === 'rejected' ? ' ' + (call.code !== undefined ? call.code : '') + (call.msg ? ' ' + call.msg : '') : '');
      var li = el('li', cls, text);
      li.dataset.outcome = call.outcome;
      p.calls.appendChild(li);
    });
  }

  function render(state) {
    renderRun(state.run);
    state.panels.forEach(function (panel) {
      var p = panelFor(panel.id, panel.label);
      renderCounts(p.counts, panel.counts, panel.baseUrl);
      renderCards(p, panel);
      renderCalls(p, panel);
    });
  }

  function connect() {
    var source = new EventSource('/api/events');
    source.addEventListener('open', function () { connEl.className = 'conn live'; connEl.title = 'live'; });
    source.addEventListener('state', function (e) { render(JSON.parse(e.data)); });
    source.addEventListener('error', function () {
      connEl.className = 'conn lost';
      connEl.title = 'disconnected (the replay may have ended); retrying';
    });
  }
  connect();
})();
