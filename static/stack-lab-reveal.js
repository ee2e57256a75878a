// Stack Lab's reveal.js plugin: demos embedded in a deck, driven by the deck.
//
//   <script src="https://YOUR-LAB/static/stack-lab-reveal.js"></script>
//   <section>
//     <iframe data-src="https://YOUR-LAB/nic/napi?embed=1" width="800" height="500"></iframe>
//     <span class="fragment" data-stack-lab="step"></span>
//   </section>
//   Reveal.initialize({ plugins: [StackLab] });
//
// What it does (the lab's README, "In your slides", has the whole API):
// - Keys: a key pressed inside a demo that the demo does not use (PageDown,
//   N, Space on a button-free spot…) comes up as a "key" event and is given
//   to the deck (reveal.js `triggerKey`), so the deck's keys work whatever
//   has focus. The demo keeps its own: → steps it, ← steps back.
// - Fragments: showing a fragment with data-stack-lab="step" steps the
//   demo on its slide (data-stack-lab-frame="#id" picks another frame);
//   hiding it steps back.
// - State: reveal.js unloads a lazy frame (data-src) when its slide is far
//   away. Each time a demo changes, its data-src becomes the demo's share
//   link, so the frame comes back in the state it was left in.
// - StackLab.request(frame, method, ...args) asks a demo directly and
//   resolves with its answer ({result} or {error}).
(function (global) {
  'use strict';
  var NAMESPACE = 'stack-lab';
  var nextId = 1;
  var waiting = {};

  // Our messages only: an object, or the JSON text of one, in our namespace.
  function read(data) {
    if (typeof data === 'string') {
      if (data.length > 65536) return null;
      try { data = JSON.parse(data); } catch (e) { return null; }
    }
    return data && typeof data === 'object' && data.namespace === NAMESPACE ? data : null;
  }

  function post(frame, method, args, id) {
    if (!frame || !frame.contentWindow) return;
    var message = { namespace: NAMESPACE, method: method, args: args || [] };
    if (id !== undefined) message.id = id;
    frame.contentWindow.postMessage(message, '*');
  }

  // The address to reload a frame with: the demo's share link, embedded.
  function embedded(link) {
    try {
      var url = new URL(link);
      url.searchParams.set('embed', '1');
      return url.href;
    } catch (e) {
      return null;
    }
  }

  function request(frame, method) {
    var args = Array.prototype.slice.call(arguments, 2);
    var id = 'reveal-' + nextId++;
    return new Promise(function (resolve) {
      waiting[id] = resolve;
      post(frame, method, args, id);
    });
  }

  function plugin() {
    return {
      id: 'stack-lab',
      init: function (deck) {
        var root = deck.getRevealElement();
        var frameOf = function (source) {
          var frames = root.querySelectorAll('iframe');
          for (var i = 0; i < frames.length; i++) {
            if (frames[i].contentWindow === source) return frames[i];
          }
          return null;
        };
        global.addEventListener('message', function (e) {
          var frame = frameOf(e.source);
          var message = frame && read(e.data);
          if (!message) return;
          if (message.id !== undefined && waiting[message.id]) {
            waiting[message.id](message);
            delete waiting[message.id];
            return;
          }
          if (message.event === 'key' && typeof message.keyCode === 'number') {
            deck.triggerKey(message.keyCode);
            return;
          }
          var link = message.state && typeof message.state.link === 'string' && embedded(message.state.link);
          if (link) {
            frame.setAttribute('data-stack-lab-link', link);
            restore(frame);
          }
        });
        // A lazy frame (data-src) loads its demo's latest link. reveal.js
        // writes data-src back from src when it unloads a preloaded frame
        // (data-preload), so it is set again after every slide change.
        var restore = function (frame) {
          var link = frame.getAttribute('data-stack-lab-link');
          if (link && frame.hasAttribute('data-src')) frame.setAttribute('data-src', link);
        };
        deck.on('slidechanged', function () {
          root.querySelectorAll('iframe[data-stack-lab-link]').forEach(restore);
        });
        // The frame a fragment drives: the one it names, else its slide's.
        var target = function (fragment) {
          var named = fragment.getAttribute('data-stack-lab-frame');
          if (named) return root.querySelector(named);
          var slide = fragment.closest('section');
          return slide && slide.querySelector('iframe');
        };
        var drive = function (method) {
          return function (event) {
            (event.fragments || [event.fragment]).forEach(function (fragment) {
              if (fragment && fragment.getAttribute('data-stack-lab') === 'step') {
                post(target(fragment), method);
              }
            });
          };
        };
        deck.on('fragmentshown', drive('step'));
        deck.on('fragmenthidden', drive('back'));
      },
    };
  }

  plugin.request = request;
  global.StackLab = plugin;
})(window);
