/* A select that offers only the ticked people (issue 36): <select data-follows-ticks="player">
   in a form with checkboxes named "player". Unticking someone takes them out of the select
   (and, if they were chosen, chooses the first who is still ticked); ticking brings them back.
   Without this file the form still works: the server says, next to the field, when the choice
   is not ticked. */
(function () {
  "use strict";
  function follow(select) {
    var form = select.form;
    var name = select.getAttribute("data-follows-ticks");
    if (!form || !name) return;
    function update() {
      var ticked = {};
      Array.prototype.forEach.call(form.elements, function (el) {
        if (el.type === "checkbox" && el.name === name && el.checked) ticked[el.value] = true;
      });
      var first = null;
      var kept = false;
      Array.prototype.forEach.call(select.options, function (option) {
        var on = ticked[option.value] === true;
        option.disabled = !on;
        option.hidden = !on;
        if (on && !first) first = option;
        if (on && option.selected) kept = true;
      });
      if (!kept && first) first.selected = true;
      if (kept || first) { // the server's complaint about the old choice no longer holds
        var said = select.getAttribute("aria-describedby");
        var error = said ? document.getElementById(said) : null;
        if (error) error.hidden = true;
        select.removeAttribute("aria-invalid");
      }
    }
    form.addEventListener("change", function (event) {
      if (event.target.type === "checkbox" && event.target.name === name) update();
    });
    update();
  }
  Array.prototype.forEach.call(document.querySelectorAll("select[data-follows-ticks]"), follow);
})();
