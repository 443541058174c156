/* The trick-by-trick replay viewer of the game report. Data comes from #replay-data (JSON, never HTML).
   Where the review judged a decision, "ask the judge here" shows its options, and the better card's line
   can be played onto the table step by step (view.line), then the viewer returns to the game. */
(function () {
  'use strict';
  var root = document.getElementById('replay');
  var data = window.HeartsReport.readJSON('replay-data');
  if (!root || !data || !data.hands.length) { return; }
  var card = window.HeartsReport.cardElement;
  var players = data.players, n = players.length;
  var view = { hand: 0, step: 0, judge: false, line: null };

  function $(sel) { return root.querySelector(sel); }
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) { e.className = cls; }
    if (text !== undefined) { e.textContent = text; }
    return e;
  }
  function who(seat) { return players[seat] + ' (seat ' + seat + ')'; }
  function plural(k, word) { return k + ' ' + word + (k === 1 ? '' : 's'); }
  function codeLink(code) {
    var a = el('a', 'code', code);
    a.href = '#rule-' + code;
    return a;
  }

  function hand() { return data.hands[view.hand]; }

  /* What the table looks like after `step` plays of the current hand. */
  function snapshot(h, step) {
    var remaining = h.start.map(function (cards) { return cards.slice(); });
    var tricks = new Array(n).fill(0), points = new Array(n).fill(0);
    for (var i = 0; i < step; i++) {
      var seat = h.plays[i][0], c = h.plays[i][1], at = remaining[seat].indexOf(c);
      if (at >= 0) { remaining[seat].splice(at, 1); }
    }
    var complete = Math.min(Math.floor(step / n), h.tricks.length);
    for (var t = 0; t < complete; t++) {
      tricks[h.tricks[t].winner] += 1;
      points[h.tricks[t].winner] += h.tricks[t].points;
    }
    var trick = step === 0 ? -1 : Math.floor((step - 1) / n);
    return { remaining: remaining, tricks: tricks, points: points, trick: trick };
  }

  function renderSeats(h, snap, step) {
    var box = $('.seats');
    box.textContent = '';
    var next = step < h.plays.length ? h.plays[step][0] : -1;
    var trick = snap.trick >= 0 ? h.tricks[snap.trick] : null;
    var trickDone = trick && step === (snap.trick + 1) * n;
    for (var seat = 0; seat < n; seat++) {
      var s = el('div', 'seat');
      if (seat === next) { s.classList.add('to-play'); }
      if (trickDone && trick.winner === seat) { s.classList.add('won'); }
      var head = el('div', 'seat-head');
      var name = el('span', 'name', players[seat]);
      var meta = el('span', 'meta', 'seat ' + seat + (seat === h.dealer ? ' \u00b7 dealer' : '') + ' \u00b7 ' +
        plural(snap.tricks[seat], 'trick') + ' \u00b7 ' + plural(snap.points[seat], 'point'));
      if (seat === next) { meta.textContent += ' \u00b7 to play'; }
      head.appendChild(name);
      head.appendChild(meta);
      s.appendChild(head);
      var cards = el('div', 'cards');
      cards.setAttribute('aria-label', players[seat] + ' holds');
      snap.remaining[seat].forEach(function (c) { cards.appendChild(card(c)); });
      if (!snap.remaining[seat].length) { cards.appendChild(el('span', 'empty', 'no cards left')); }
      s.appendChild(cards);
      box.appendChild(s);
    }
  }

  function renderTrick(h, snap, step) {
    var title = $('.trick-title'), cards = $('.trick-cards'), result = $('.trick-result');
    cards.textContent = '';
    result.textContent = '';
    if (snap.trick < 0) {
      title.textContent = h.direction === 'hold' ? 'Before the first lead (no passing this hand)' : 'Before the first lead';
      return;
    }
    title.textContent = 'Trick ' + (snap.trick + 1) + ' of ' + Math.ceil((h.total || h.plays.length) / n) +
      (h.line ? ' \u00b7 the line' : '');
    var first = snap.trick * n, last = Math.min(step, first + n);
    var info = h.tricks[snap.trick];
    var done = info && step === first + n;
    for (var i = first; i < last; i++) {
      var seat = h.plays[i][0];
      var p = el('div', 'played');
      if (i === step - 1) { p.classList.add('latest'); }
      if (h.line && i >= h.from) { p.classList.add('line-play'); }
      if (done && info.winner === seat) { p.classList.add('winner'); }
      p.appendChild(el('span', 'who', players[seat]));
      p.appendChild(card(h.plays[i][1]));
      var r = h.review[i];
      if (r && r['class']) {
        p.classList.add('costly');
        p.appendChild(el('span', 'flag review-flag', '? ' + r['class']));
      }
      if (h.flags[i]) {
        p.classList.add('flagged');
        p.appendChild(el('span', 'flag', '\u26a0 ' + h.flags[i].map(function (v) { return h.violations[v].code; }).join(', ')));
      }
      cards.appendChild(p);
    }
    if (done) {
      result.textContent = who(info.winner) + ' wins the trick' +
        (info.points ? ' and takes ' + plural(info.points, 'point') : ' (no points)');
    } else if (!info && last === first + n) {
      result.textContent = 'Not scored: the hand had already ended.';
    }
  }

  function event(kind, parts) {
    var e = el('div', 'event ' + kind);
    parts.forEach(function (part) { e.appendChild(typeof part === 'string' ? document.createTextNode(part) : part); });
    return e;
  }

  function renderEvents(h) {
    var box = $('.events');
    box.textContent = '';
    if (view.step === 0) {
      if (h.passes) {
        var list = el('ul', 'pass-list');
        h.passes.forEach(function (p, seat) {
          var li = el('li');
          li.appendChild(document.createTextNode(players[seat] + ' passed ' + h.direction + ' to ' + players[p.to] + ': '));
          p.cards.forEach(function (c) { li.appendChild(card(c)); li.appendChild(document.createTextNode(' ')); });
          (p.verdicts || []).forEach(function (v) { li.appendChild(el('span', 'verdict', v)); });
          if (p.review) { li.appendChild(el('span', 'sub review-note' + (p.review['class'] ? ' costly' : ''), p.review.text)); }
          list.appendChild(li);
        });
        box.appendChild(event('info', ['Passes (', h.direction, ')', list]));
      }
      h.hand_level.forEach(function (v) { box.appendChild(violationEvent(h.violations[v])); });
    }
    if (view.step > 0 && h.flags[view.step - 1]) {
      h.flags[view.step - 1].forEach(function (v) { box.appendChild(violationEvent(h.violations[v])); });
    }
    (h.notes[view.step] || []).forEach(function (text) { box.appendChild(event('moon', ['\u263e ' + text])); });
    if (view.step > 0 && h.review[view.step - 1]) {
      var r = h.review[view.step - 1];
      box.appendChild(event(r['class'] ? 'review costly' : 'review', [r.text]));
    }
    if (view.step === h.plays.length) {
      if (h.ended) { box.appendChild(event('info', [h.ended])); }
      if (h.moon) {
        box.appendChild(event('moon', [players[h.moon.seat] + ' shot the moon (' + h.moon.choice.replace(/_/g, ' ') + ').']));
      }
      box.appendChild(event('info', ['Hand ' + h.number + ' scores: ' + h.points.map(function (pts, seat) {
        return players[seat] + ' ' + pts;
      }).join(', ') + '.']));
      h.end_level.forEach(function (v) { box.appendChild(violationEvent(h.violations[v])); });
    }
    if (!box.childNodes.length) {
      box.appendChild(el('p', 'muted', view.step < h.plays.length ? 'Nothing to flag at this card.' : ''));
    }
  }

  function violationEvent(v) {
    return event('', ['\u26a0 ', codeLink(v.code), v.message]);
  }

  function renderControls(h) {
    $('.position').textContent = 'Play ' + view.step + ' of ' + h.plays.length;
    $('[data-go="start"]').disabled = $('[data-go="back"]').disabled = view.step === 0;
    $('[data-go="end"]').disabled = $('[data-go="forward"]').disabled = view.step === h.plays.length;
    $('[data-go="prev-hand"]').disabled = view.hand === 0;
    $('[data-go="next-hand"]').disabled = view.hand === data.hands.length - 1;
    $('select').value = String(view.hand);
    var marks = $('.timeline').children;
    for (var i = 0; i < marks.length; i++) {
      marks[i].classList.toggle('current', i === view.step - 1);
    }
  }

  function renderTimeline(h) {
    var box = $('.timeline');
    box.textContent = '';
    h.plays.forEach(function (play, i) {
      var b = el('button');
      b.type = 'button';
      b.setAttribute('aria-label', 'Play ' + (i + 1) + ': ' + players[play[0]] + ' ' + play[1] + (h.flags[i] ? ' (violation)' : ''));
      b.title = 'Trick ' + (Math.floor(i / n) + 1) + ': ' + players[play[0]] + ' ' + play[1];
      if (h.flags[i]) { b.classList.add('flagged'); }
      else if (h.review[i] && h.review[i]['class']) { b.classList.add('costly'); b.setAttribute('aria-label', b.getAttribute('aria-label') + ' (' + h.review[i]['class'] + ')'); }
      if (i % n === 0 && i) { b.classList.add('trick-start'); }
      b.addEventListener('click', function () { go(view.hand, i + 1); });
      box.appendChild(b);
    });
  }

  function renderScore(h) {
    var box = $('.hand-score');
    box.textContent = '';
    var table = el('table'), head = el('tr'), rows = [['Computed', h.points]];
    if (h.recorded) { rows.push(['Recorded', h.recorded]); }
    rows.push(['Total', h.totals]);
    head.appendChild(el('th', '', 'Hand ' + h.number));
    players.forEach(function (p) {
      var th = el('th', 'num');
      th.title = p;
      th.appendChild(el('span', 'clip', p));
      head.appendChild(th);
    });
    var thead = el('thead');
    thead.appendChild(head);
    table.appendChild(thead);
    var body = el('tbody');
    rows.forEach(function (row) {
      var tr = el('tr');
      tr.appendChild(el('th', '', row[0]));
      row[1].forEach(function (v, seat) {
        var td = el('td', 'num', String(v));
        if (row[0] === 'Recorded' && v !== h.points[seat]) {
          td.classList.add('mismatch');
          td.textContent += ' \u2260';
          td.title = 'recorded ' + v + ', computed ' + h.points[seat];
        }
        tr.appendChild(td);
      });
      body.appendChild(tr);
    });
    table.appendChild(body);
    box.appendChild(table);
  }

  var drawnHand = -1;
  function render() {
    var h = hand();
    if (drawnHand !== view.hand) {
      renderTimeline(h);
      renderScore(h);
      drawnHand = view.hand;
    }
    var shown = view.line ? lineHand(h, view.line) : h, step = view.line ? shown.from + view.line.k : view.step;
    var snap = snapshot(shown, step);
    renderSeats(shown, snap, step);
    renderTrick(shown, snap, step);
    if (view.line) { renderLineEvents(shown); } else { renderEvents(h); }
    renderJudge(h);
    renderControls(h);
    root.classList.toggle('line-mode', !!view.line);
    root.setAttribute('data-hand', String(h.number));
    root.setAttribute('data-step', String(view.step));
    if (view.line) { root.setAttribute('data-line', String(view.line.k)); } else { root.removeAttribute('data-line'); }
  }

  /* -- the judge ------------------------------------------------------------------------------------------
     h.judge[step]: the decisions the review judged at that position (step 0: the passes; step s: play s),
     each {seat, played, best, cost, class?, forced?, unclear?, options: [[cards, points, margin, marks,
     reason]], line?: [[seat, card]], tricks?: [[winner, points]]}. Marks: '=' within the noise of the first
     option, 'p' played, 'b' the better card (the one the line follows). */
  function judged(h) { return (h.judge || {})[String(view.step)] || []; }

  /* The hand as the line plays it: the game's plays up to the decision, then the line's. */
  function lineHand(h, line) {
    var from = view.step - 1, keep = function (map) {
      var out = {};
      Object.keys(map).forEach(function (k) { if (parseInt(k, 10) < from) { out[k] = map[k]; } });
      return out;
    };
    var tricks = h.tricks.slice(0, Math.floor(from / n)).concat(line.entry.tricks.map(function (t) {
      return { winner: t[0], points: t[1] };
    }));
    return { number: h.number, dealer: h.dealer, direction: h.direction, start: h.start, passes: h.passes,
      plays: h.plays.slice(0, from).concat(line.entry.line), tricks: tricks, flags: keep(h.flags),
      violations: h.violations, review: keep(h.review), notes: {}, total: h.plays.length, line: line.entry, from: from };
  }

  function cardsText(text) {
    var span = el('span', 'judge-cards');
    text.split(' ').forEach(function (group, g) {
      if (g) { span.appendChild(document.createTextNode(' ')); }
      group.split('/').forEach(function (c, i) {
        if (i) { span.appendChild(document.createTextNode('/')); }
        span.appendChild(/^[2-9TJQKA][CDHS]$/.test(c) ? card(c) : document.createTextNode(c));
      });
    });
    return span;
  }

  function renderLineEvents(shown) {
    var box = $('.events'), entry = view.line.entry, k = view.line.k;
    box.textContent = '';
    var e = event('info line-note', ['The line after ' + entry.best + ' (' + players[entry.seat] + ' played ' +
      entry.played + '): ' + k + ' of ' + entry.line.length + ' plays.']);
    if (k > 0) {
      var last = entry.line[k - 1];
      e.appendChild(el('span', 'sub', players[last[0]] + ' plays ' + last[1] + '.'));
    }
    e.appendChild(el('span', 'sub', 'The plays the rollout players made on deals ' + players[entry.seat] +
      ' could not tell from the real one: the other seats\u2019 cards may differ from the game\u2019s.'));
    box.appendChild(e);
  }

  function button(text, cls, onClick) {
    var b = el('button', cls, text);
    b.type = 'button';
    b.addEventListener('click', onClick);
    return b;
  }

  function optionItem(o) {
    var marks = o[3] || '', li = el('li', 'judge-option');
    if (marks.indexOf('p') >= 0) { li.classList.add('judge-played'); }
    if (marks.indexOf('b') >= 0) { li.classList.add('judge-better'); }
    li.appendChild(cardsText(o[0]));
    li.appendChild(el('span', 'judge-points', (marks.indexOf('=') >= 0 ? ' \u2248 ' : ' ') + o[1].toFixed(1) +
      ' \u00b1 ' + o[2].toFixed(1) + ' points'));
    if (marks.indexOf('p') >= 0) { li.appendChild(el('span', 'verdict', 'played')); }
    if (marks.indexOf('b') >= 0) { li.appendChild(el('span', 'verdict good', 'better')); }
    if (o[4]) { li.appendChild(el('span', 'sub', o[4])); }
    return li;
  }

  function renderJudge(h) {
    var box = $('.judge'), entries = judged(h);
    box.textContent = '';
    box.hidden = !entries.length;
    if (!entries.length) { return; }
    if (!view.judge) {
      box.appendChild(button('Ask the judge here', 'btn judge-ask', function () { view.judge = true; render(); }));
      return;
    }
    var panel = el('div', 'judge-panel');
    panel.setAttribute('role', 'region');
    panel.setAttribute('aria-label', 'The judge at this position');
    entries.forEach(function (entry) {
      var part = el('div', 'judge-decision');
      var head = players[entry.seat] + (view.step === 0 ? ' passed ' : ' played ') + entry.played;
      if (entry.forced) { head += ': forced, the only choice'; }
      else if (entry['class']) { head += ': ' + entry['class'] + ', ' + entry.cost.toFixed(1) + ' expected points lost'; }
      else if (entry.unclear) { head += ': unclear'; }
      else { head += ': no clear loss (' + entry.cost.toFixed(1) + ')'; }
      part.appendChild(el('p', 'judge-head', head));
      var list = el('ol', 'judge-options');
      list.setAttribute('aria-label', 'Options for ' + players[entry.seat] + ', best first (expected points)');
      entry.options.forEach(function (o) { list.appendChild(optionItem(o)); });
      part.appendChild(list);
      if (entry.line && entry.line.length) {
        if (view.line && view.line.entry === entry) {
          var nav = el('div', 'judge-line-controls');
          nav.setAttribute('role', 'group');
          nav.setAttribute('aria-label', 'The line');
          var back = button('\u2039 Line', 'btn', function () { stepLine(-1); });
          var fwd = button('Line \u203a', 'btn', function () { stepLine(1); });
          back.setAttribute('data-line-go', 'back');
          fwd.setAttribute('data-line-go', 'forward');
          back.disabled = view.line.k === 0;
          fwd.disabled = view.line.k === entry.line.length;
          nav.appendChild(back);
          nav.appendChild(fwd);
          nav.appendChild(el('span', 'line-position', 'Line: ' + view.line.k + ' of ' + entry.line.length));
          var home = button('Back to the game', 'btn', function () { view.line = null; render(); });
          home.setAttribute('data-line-go', 'return');
          nav.appendChild(home);
          part.appendChild(nav);
        } else {
          var show = button('Show the line after ' + entry.best, 'btn judge-line', function () {
            view.line = { entry: entry, k: 1 };
            render();
          });
          part.appendChild(show);
        }
      }
      panel.appendChild(part);
    });
    panel.appendChild(el('p', 'sub', 'Expected points for ' + (entries.length > 1 ? 'each seat' : players[entries[0].seat]) +
      ' over the rest of the hand, fewer is better; \u2248 within the noise of the first.'));
    panel.appendChild(button('Close', 'btn judge-close', function () { view.judge = false; view.line = null; render(); }));
    box.appendChild(panel);
  }

  function stepLine(delta) {
    if (!view.line) { return; }
    view.line.k = Math.max(0, Math.min(view.line.entry.line.length, view.line.k + delta));
    render();
  }

  function go(handIndex, step) {
    handIndex = Math.max(0, Math.min(data.hands.length - 1, handIndex));
    var plays = data.hands[handIndex].plays.length;
    step = Math.max(0, Math.min(plays, step));
    if (handIndex !== view.hand || step !== view.step) { view.judge = false; }
    view.line = null;
    view.hand = handIndex;
    view.step = step;
    render();
  }

  function trickStep(direction) {
    var step = view.step;
    if (direction > 0) { return Math.min(hand().plays.length, (Math.floor(step / n) + 1) * n); }
    return step % n ? step - step % n : Math.max(0, step - n);
  }

  var actions = {
    'start': function () { go(view.hand, 0); },
    'back': function () { go(view.hand, view.step - 1); },
    'forward': function () { go(view.hand, view.step + 1); },
    'end': function () { go(view.hand, hand().plays.length); },
    'trick-back': function () { go(view.hand, trickStep(-1)); },
    'trick-forward': function () { go(view.hand, trickStep(1)); },
    'prev-hand': function () { go(view.hand - 1, 0); },
    'next-hand': function () { go(view.hand + 1, 0); }
  };

  Array.prototype.forEach.call(root.querySelectorAll('[data-go]'), function (b) {
    b.addEventListener('click', function () { actions[b.getAttribute('data-go')](); });
  });
  $('select').addEventListener('change', function (e) { go(parseInt(e.target.value, 10), 0); });

  function inView() {
    var r = root.getBoundingClientRect();
    return r.top < window.innerHeight * 0.6 && r.bottom > window.innerHeight * 0.3;
  }

  document.addEventListener('keydown', function (e) {
    var active = document.activeElement;
    var focused = root.contains(active);
    var idle = !active || active === document.body;
    if (!(focused || (idle && inView())) || e.altKey || e.ctrlKey || e.metaKey) { return; }
    if (active && (active.tagName === 'SELECT' || active.tagName === 'INPUT')) { return; }
    var key = e.key, name = null;
    if (view.line && (key === 'ArrowRight' || key === 'ArrowLeft' || key === 'Escape') && !e.shiftKey) {
      e.preventDefault();
      if (key === 'Escape') { view.line = null; render(); } else { stepLine(key === 'ArrowRight' ? 1 : -1); }
      return;
    }
    if (key === 'ArrowRight') { name = e.shiftKey ? 'trick-forward' : 'forward'; }
    else if (key === 'ArrowLeft') { name = e.shiftKey ? 'trick-back' : 'back'; }
    else if (key === 'Home') { name = 'start'; }
    else if (key === 'End') { name = 'end'; }
    else if (key === 'n' || key === 'N' || key === 'PageDown') { name = 'next-hand'; }
    else if (key === 'p' || key === 'P' || key === 'PageUp') { name = 'prev-hand'; }
    if (name) {
      e.preventDefault();
      actions[name]();
    }
  });

  /* Links elsewhere in the page ("show in the replay") carry data-hand / data-step. */
  Array.prototype.forEach.call(document.querySelectorAll('[data-show-hand]'), function (a) {
    a.addEventListener('click', function (e) {
      e.preventDefault();
      go(parseInt(a.getAttribute('data-show-hand'), 10), parseInt(a.getAttribute('data-show-step'), 10));
      root.scrollIntoView({ behavior: 'smooth', block: 'start' });
      root.focus({ preventScroll: true });
    });
  });

  /* An address opens the viewer at #hand=H&play=P: hand H's number, P plays shown (1-based; 0 is before
     the first lead, where the passes are). From elsewhere (a player's leak), or from this page: a flagged
     decision of the review, or a point of its graph. */
  function show(hash) {
    var m = /^#hand=(\d{1,6})(?:&play=(\d{1,6}))?$/.exec(hash);
    if (!m) { return false; }
    var number = parseInt(m[1], 10), index = -1;
    for (var i = 0; i < data.hands.length; i++) {
      if (data.hands[i].number === number) { index = i; break; }
    }
    if (index < 0) { return false; }
    go(index, m[2] === undefined ? 0 : parseInt(m[2], 10));
    root.scrollIntoView({ block: 'start' });
    root.focus({ preventScroll: true });
    return true;
  }
  function fromFragment() { return show(window.location.hash); }
  window.addEventListener('hashchange', fromFragment);
  /* Going to the address already in the bar fires no hashchange: show it anyway (the viewer may have moved). */
  window.HeartsReport.showPosition = function (hash) {
    if (window.location.hash === hash) { show(hash); } else { window.location.hash = hash; }
  };
  document.addEventListener('click', function (e) {
    var a = e.target.closest && e.target.closest('a[href^="#hand="]');
    if (a && window.location.hash === a.getAttribute('href')) { show(a.getAttribute('href')); }
  });

  root.hidden = false;
  var fallback = document.getElementById('replay-fallback');
  if (fallback) { fallback.hidden = true; }
  if (!fromFragment()) { go(0, 0); }
}());
