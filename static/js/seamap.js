// Pan and zoom for the campaign map (progressive enhancement: without this script the +, −, arrows
// and "Whole map" links do the same through ?zoom=&cx=&cy= on the server).
//
// The map is an inline SVG; zooming changes its viewBox and sets --zoom, which the stylesheet uses
// to keep symbols and labels one size on screen. Labels that would overlap at the current zoom are
// hidden: first kept are those the server found room for at the whole map (it ranks zones with our
// forces, then open water, then coasts and narrows), then the others in map order. Wheel zooms at the
// pointer; one pointer drags; two pinch.
(function () {
  "use strict";

  var MAX_ZOOM = 8;

  function parseBox(text) {
    var v = text.trim().split(/\s+/).map(Number);
    return { x: v[0], y: v[1], w: v[2], h: v[3] };
  }

  function setup(svg) {
    if (svg.dataset.seamapReady) return;
    svg.dataset.seamapReady = "1";
    svg.classList.add("pannable");
    var full = parseBox(svg.dataset.full);
    var box = parseBox(svg.getAttribute("viewBox"));
    var area = svg.closest(".map-area") || document;
    var level = area.querySelector(".map-zoom-level");

    function clamp() {
      var zoom = Math.min(Math.max(full.w / box.w, 1), MAX_ZOOM);
      box.w = full.w / zoom;
      box.h = full.h / zoom;
      box.x = Math.min(Math.max(box.x, full.x), full.x + full.w - box.w);
      box.y = Math.min(Math.max(box.y, full.y), full.y + full.h - box.h);
      return zoom;
    }

    function declutter() {
      // Hide labels whose box on screen meets a label already kept: zones' names first (those the
      // server found room for before the crowded ones), then ports' names once they are shown.
      var kept = [];
      var labels = svg.querySelectorAll(".zone-label");
      var order = Array.prototype.slice.call(labels).sort(function (a, b) {
        return (a.classList.contains("crowded") ? 1 : 0) - (b.classList.contains("crowded") ? 1 : 0);
      });
      if (svg.classList.contains("zoomed")) {
        order = order.concat(Array.prototype.slice.call(svg.querySelectorAll(".port-name")));
      }
      order.forEach(function (label) {
        label.classList.remove("hidden-by-script");
        label.classList.add("shown-by-script");
        var r = label.getBoundingClientRect();
        var hit = kept.some(function (k) {
          return r.left < k.right - 1 && k.left < r.right - 1 && r.top < k.bottom - 1 && k.top < r.bottom - 1;
        });
        if (hit) {
          label.classList.add("hidden-by-script");
          label.classList.remove("shown-by-script");
        } else {
          kept.push(r);
        }
      });
    }

    function measure() {
      // Map units per CSS px at the whole map: the stylesheet sizes the tap targets with it.
      var r = svg.getBoundingClientRect();
      var perUnit = Math.min(r.width / full.w, r.height / full.h);
      if (perUnit > 0) svg.style.setProperty("--upp1", (1 / perUnit).toFixed(4));
    }

    var pending = null;
    function apply() {
      var zoom = clamp();
      svg.setAttribute("viewBox", [box.x, box.y, box.w, box.h].map(function (n) { return n.toFixed(1); }).join(" "));
      svg.style.setProperty("--zoom", zoom.toFixed(3));
      svg.classList.toggle("zoomed", zoom >= 1.9);
      if (level) level.textContent = "Zoom ×" + (Math.round(zoom * 10) / 10);
      if (pending) cancelAnimationFrame(pending);
      pending = requestAnimationFrame(function () { pending = null; declutter(); });
    }

    function toSvg(clientX, clientY) {
      var r = svg.getBoundingClientRect();
      // preserveAspectRatio meet: the drawing is scaled by the smaller ratio and centred.
      var s = Math.min(r.width / box.w, r.height / box.h);
      var ox = r.left + (r.width - box.w * s) / 2;
      var oy = r.top + (r.height - box.h * s) / 2;
      return { x: box.x + (clientX - ox) / s, y: box.y + (clientY - oy) / s, s: s };
    }

    function zoomAt(factor, px, py) {
      var zoom = full.w / box.w;
      var target = Math.min(Math.max(zoom * factor, 1), MAX_ZOOM);
      var k = zoom / target;
      box.x = px - (px - box.x) * k;
      box.y = py - (py - box.y) * k;
      box.w *= k;
      box.h *= k;
      apply();
    }

    area.querySelectorAll("[data-map-zoom], [data-map-pan]").forEach(function (control) {
      control.addEventListener("click", function (event) {
        event.preventDefault();
        var cx = box.x + box.w / 2, cy = box.y + box.h / 2;
        var what = control.dataset.mapZoom;
        if (what === "in") zoomAt(2, cx, cy);
        else if (what === "out") zoomAt(0.5, cx, cy);
        else if (what === "reset") { box = { x: full.x, y: full.y, w: full.w, h: full.h }; apply(); }
        var pan = control.dataset.mapPan;
        var step = { north: [0, -0.5], south: [0, 0.5], west: [-0.5, 0], east: [0.5, 0] }[pan];
        if (step) { box.x += step[0] * box.w; box.y += step[1] * box.h; apply(); }
      });
      if (control.tagName === "SPAN") {
        // Disabled at the server's zoom, but the script zooms further.
        control.classList.remove("disabled");
        control.setAttribute("role", "button");
        control.setAttribute("tabindex", "0");
      }
    });

    svg.addEventListener("wheel", function (event) {
      event.preventDefault();
      var p = toSvg(event.clientX, event.clientY);
      zoomAt(event.deltaY < 0 ? 1.25 : 0.8, p.x, p.y);
    }, { passive: false });

    // Drag to pan, pinch to zoom; a drag is not a click on what it started over.
    var pointers = new Map();
    var moved = 0;
    var pinch = null;
    svg.addEventListener("pointerdown", function (event) {
      pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
      moved = 0;
      if (pointers.size === 2) {
        var pts = Array.from(pointers.values());
        pinch = Math.hypot(pts[0].x - pts[1].x, pts[0].y - pts[1].y);
      }
    });
    svg.addEventListener("pointermove", function (event) {
      var last = pointers.get(event.pointerId);
      if (!last) return;
      var now = { x: event.clientX, y: event.clientY };
      if (pointers.size === 1) {
        var s = toSvg(now.x, now.y).s;
        moved += Math.abs(now.x - last.x) + Math.abs(now.y - last.y);
        if (moved > 4) {
          if (!svg.hasPointerCapture(event.pointerId)) svg.setPointerCapture(event.pointerId);
          svg.classList.add("dragging");
          box.x -= (now.x - last.x) / s;
          box.y -= (now.y - last.y) / s;
          apply();
        }
      } else if (pointers.size === 2 && pinch) {
        pointers.set(event.pointerId, now);
        var pts = Array.from(pointers.values());
        var d = Math.hypot(pts[0].x - pts[1].x, pts[0].y - pts[1].y);
        var mid = toSvg((pts[0].x + pts[1].x) / 2, (pts[0].y + pts[1].y) / 2);
        zoomAt(d / pinch, mid.x, mid.y);
        pinch = d;
        moved = 100;
      }
      pointers.set(event.pointerId, now);
    });
    function release(event) {
      pointers.delete(event.pointerId);
      if (pointers.size < 2) pinch = null;
      svg.classList.remove("dragging");
    }
    svg.addEventListener("pointerup", release);
    svg.addEventListener("pointercancel", release);
    svg.addEventListener("click", function (event) {
      if (moved > 4) {
        event.preventDefault();
        event.stopPropagation();
        moved = 0;
      }
    }, true);
    svg.addEventListener("click", function (event) {
      // A crowd's cluster: zoom in on it here rather than load the map again at that view.
      var cluster = event.target.closest("a.cluster-link");
      if (cluster) {
        event.preventDefault();
        var cx = Number(cluster.dataset.cx), cy = Number(cluster.dataset.cy);
        box.w = full.w / 4; box.h = full.h / 4;
        box.x = cx - box.w / 2; box.y = cy - box.h / 2;
        apply();
      }
    });
    svg.addEventListener("click", function (event) {
      // An SVG link with hx-get/hx-post is htmx's: htmx does not cancel the browser's own
      // navigation for SVG <a> elements (they are not HTMLAnchorElements), so cancel it here.
      var link = event.target.closest("a");
      if (link && window.htmx && (link.hasAttribute("hx-get") || link.hasAttribute("hx-post"))) {
        event.preventDefault();
      }
    });

    // On a phone, a fleet's moves are too small to pick out at the whole map: show them up close.
    var dests = svg.querySelector(".destinations");
    if (dests && svg.dataset.zoom === "1" && window.matchMedia("(max-width: 600px)").matches) {
      var b = dests.getBBox();
      var pad = 40;
      var fit = Math.min(full.w / (b.width + 2 * pad), full.h / (b.height + 2 * pad), 4);
      if (fit > 1) {
        box.w = full.w / fit;
        box.h = full.h / fit;
        box.x = b.x + b.width / 2 - box.w / 2;
        box.y = b.y + b.height / 2 - box.h / 2;
      }
    }

    measure();
    apply();
    window.addEventListener("resize", function () { requestAnimationFrame(function () { measure(); declutter(); }); });
    svg.seamapView = function () {
      return { zoom: (full.w / box.w).toFixed(2), cx: (box.x + box.w / 2).toFixed(0), cy: (box.y + box.h / 2).toFixed(0) };
    };
  }

  // The view is kept after an action on the map (a fleet chosen, a move entered or withdrawn, an
  // order given): every request from the map's area carries the zoom and centre shown now, which
  // the server draws the answer at (without the script the links and forms carry the server's).
  document.addEventListener("htmx:configRequest", function (event) {
    var area = event.detail.elt && event.detail.elt.closest && event.detail.elt.closest(".map-area");
    var svg = area && area.querySelector("svg.seamap.geo[data-full]");
    if (!svg || !svg.seamapView) return;
    var view = svg.seamapView();
    event.detail.parameters.zoom = view.zoom;
    event.detail.parameters.cx = view.cx;
    event.detail.parameters.cy = view.cy;
  });

  function init(root) {
    (root || document).querySelectorAll("svg.seamap.geo[data-full]").forEach(setup);
  }

  document.addEventListener("DOMContentLoaded", function () { init(document); });
  document.addEventListener("htmx:load", function (event) { init(event.target); });
})();
