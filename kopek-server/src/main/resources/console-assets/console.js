// Progressive help only: every page reads and every form posts without JavaScript.
// A "captured" decision needs the PSP's reference; say so in the form before the server has to.
document.addEventListener("change", function (event) {
    var input = event.target;
    if (input.name !== "decision" || !input.form) {
        return;
    }
    var reference = input.form.querySelector("input[name=psp_reference]");
    if (reference) {
        reference.required = input.value === "captured";
    }
});
