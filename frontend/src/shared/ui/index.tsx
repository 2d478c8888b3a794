// Components the apps share: a confirmation dialog (the platform's modal <dialog>, which
// keeps focus inside and closes with Escape), a notice read out by screen readers, a table
// that scrolls sideways on a phone rather than squeezing its columns, and a labelled field.
import type { ComponentChildren, JSX } from "preact";
import { useEffect, useId, useRef, useState } from "preact/hooks";
import { LANGUAGES } from "../words";

export function Notice({ kind = "ok", children }: { kind?: "ok" | "error"; children: ComponentChildren }) {
  return (
    <p class={`notice ${kind}`} role={kind === "error" ? "alert" : "status"}>
      {children}
    </p>
  );
}

export function Confirm(props: {
  title: string;
  text: string;
  confirm: string;
  cancel: string;
  danger?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
  /** What the dialog asks for besides yes or no (a reason, a note). */
  children?: ComponentChildren;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    ref.current?.showModal();
  }, []);
  const titleId = useId();
  return (
    <dialog ref={ref} class="confirm" aria-labelledby={titleId} onCancel={(e) => { e.preventDefault(); props.onCancel(); }}>
      <h2 id={titleId}>{props.title}</h2>
      <p>{props.text}</p>
      {props.children}
      <div class="actions">
        <button type="button" class="secondary" onClick={props.onCancel}>{props.cancel}</button>
        <button type="button" class={props.danger ? "danger" : "primary"} onClick={props.onConfirm}>{props.confirm}</button>
      </div>
    </dialog>
  );
}

/** A table with a caption (its name for screen readers) that scrolls sideways when narrow. */
export function Table({ caption, head, children }: { caption: string; head: string[]; children: ComponentChildren }) {
  return (
    <div class="table-wrap" role="region" aria-label={caption} tabIndex={0}>
      <table>
        <caption class="visually-hidden">{caption}</caption>
        <thead>
          <tr>{head.map((h) => <th scope="col" key={h}>{h}</th>)}</tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

/** A label and its control, tied together. */
export function Field({ label, children }: { label: string; children: (id: string) => JSX.Element }) {
  const id = useId();
  return (
    <div class="field">
      <label for={id}>{label}</label>
      {children(id)}
    </div>
  );
}

/** A choice among the 14 languages, each named in itself. */
export function LanguageField({ label, value, onChange }: { label: string; value: string; onChange: (code: string) => void }) {
  return (
    <Field label={label}>
      {(id) => (
        <select id={id} value={value} onChange={(e) => onChange(e.currentTarget.value)}>
          {LANGUAGES.map(([c, n]) => <option value={c} key={c} lang={c}>{n}</option>)}
        </select>
      )}
    </Field>
  );
}

/** A form's submission: `busy` while `work` runs (its button disabled), a failure handed to
 * `onError`. */
export function useSubmit(work: () => Promise<void>, onError: (e: unknown) => void): [boolean, (e: Event) => Promise<void>] {
  const [busy, setBusy] = useState(false);
  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    try {
      await work();
    } catch (err) {
      onError(err);
    } finally {
      setBusy(false);
    }
  };
  return [busy, submit];
}
