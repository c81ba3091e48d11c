// The challenge editor: CodeMirror 6 with Python highlighting, bundled for offline use.
// window.TDEditor.mount(textarea) replaces a <textarea> with an editor kept in sync with it,
// so the form still submits the code (and works without JavaScript as a plain textarea).
// Indentation is 4 spaces (the starters' and PEP 8's), Tab indents the selection.
// Ctrl+Enter / Ctrl+Shift+Enter (run / submit) are bound by the page (static/challenge.js).
import { basicSetup } from "codemirror";
import { EditorState } from "@codemirror/state";
import { indentUnit } from "@codemirror/language";
import { EditorView, keymap } from "@codemirror/view";
import { indentWithTab } from "@codemirror/commands";
import { python } from "@codemirror/lang-python";
import { oneDark } from "@codemirror/theme-one-dark";

function mount(textarea) {
  const dark = window.matchMedia && window.matchMedia("(prefers-color-scheme: dark)").matches;
  const view = new EditorView({
    doc: textarea.value,
    extensions: [
      basicSetup,
      indentUnit.of("    "),
      EditorState.tabSize.of(4),
      keymap.of([indentWithTab]),
      python(),
      ...(dark ? [oneDark] : []),
      EditorView.updateListener.of((u) => { if (u.docChanged) textarea.value = u.state.doc.toString(); }),
    ],
  });
  textarea.style.display = "none";
  textarea.parentNode.insertBefore(view.dom, textarea);
  textarea.editorView = view;
  return view;
}

function setCode(textarea, code) {
  const view = textarea.editorView;
  if (view) view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: code } });
  textarea.value = code;
}

window.TDEditor = { mount, setCode };
