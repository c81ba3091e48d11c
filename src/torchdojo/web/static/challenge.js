// The challenge page: mount the code editor; Reset puts the starter back (after asking).
const ta = document.getElementById("code");
if (window.TDEditor) TDEditor.mount(ta);
document.getElementById("reset-btn").addEventListener("click", (e) => {
  if (confirm("Replace your code with the starter?")) TDEditor.setCode(ta, e.target.dataset.starter);
});
