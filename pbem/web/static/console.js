// The only script: ask before a destructive action (buttons with data-confirm).
document.addEventListener("submit", function (event) {
  var button = event.submitter;
  var text = (button && button.getAttribute("data-confirm")) || event.target.getAttribute("data-confirm");
  if (text && !window.confirm(text)) {
    event.preventDefault();
  }
});
