// A live count under every text box that names its limit in data-max-chars (the dispatch forms).
// The boxes carry no maxlength on purpose: a browser cuts pasted text at maxlength without a word.
// Here the whole text stays; the count says how far over the limit it is, and the server refuses
// an over-long text with the same words, so the page works the same without JavaScript.
(function () {
  function plural(n, one, many) { return n.toLocaleString() + " " + (n === 1 ? one : many); }
  function attach(box) {
    var limit = parseInt(box.dataset.maxChars, 10);
    if (!limit || box.dataset.counted) { return; }
    box.dataset.counted = "1";
    var counter = document.createElement("span");
    counter.className = "char-count";
    counter.id = (box.id || "text") + "-count";
    counter.setAttribute("aria-live", "polite");
    box.insertAdjacentElement("afterend", counter);
    var described = box.getAttribute("aria-describedby");
    box.setAttribute("aria-describedby", (described ? described + " " : "") + counter.id);
    function update() {
      var used = box.value.length;
      var over = used - limit;
      if (over > 0) {
        counter.textContent = plural(over, "character", "characters") + " over the limit of " +
          limit.toLocaleString() + ": shorten it before sending.";
        counter.classList.add("over");
        box.setAttribute("aria-invalid", "true");
      } else {
        counter.textContent = used.toLocaleString() + " of " + limit.toLocaleString() + " characters";
        counter.classList.remove("over");
        box.removeAttribute("aria-invalid");
      }
    }
    box.addEventListener("input", update);
    update();
  }
  document.addEventListener("DOMContentLoaded", function () {
    Array.prototype.forEach.call(document.querySelectorAll("[data-max-chars]"), attach);
  });
})();
