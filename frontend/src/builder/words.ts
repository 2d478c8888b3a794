// The builder's words in the 14 languages (its own small catalogue: the frame does not load
// the application's). English is the reference, inside the page; each other language is a
// chunk of its own (words/*.ts), loaded only when used. `{name}` marks a value.

const en = {
  loading: "Loading…",
  ended: "This page has ended. Open it again from the website you came from.",
  error: "Something went wrong: {message}",
  title: "Template builder",
  name: "Template name",
  untitled: "Untitled template",
  save: "Save template",
  saving: "Saving…",
  saved: "Saved as version {version}.",
  unsaved: "Changes not saved",
  editor: "The template's words",
  toolbar: "Formatting",
  paragraph: "Text",
  heading: "Heading {level}",
  senderOnly: "Only the sender sees this section",
  bold: "Bold",
  italic: "Italic",
  underline: "Underline",
  strike: "Strike through",
  link: "Link",
  linkAddress: "Address (https:// or mailto:)",
  bullets: "Bulleted list",
  numbers: "Numbered list",
  quote: "Quote",
  rule: "Line across",
  table: "Table",
  addRow: "Add a row",
  addColumn: "Add a column",
  deleteRow: "Delete the row",
  deleteColumn: "Delete the column",
  deleteTable: "Delete the table",
  picture: "Picture",
  pictureAlt: "Words for people who cannot see the picture",
  undo: "Undo",
  redo: "Redo",
  insert: "Insert",
  field: "Field",
  chip: "Merge value",
  signatureBlock: "Signature block",
  seats: "Seats",
  seatsLead: "The people who sign, each in a seat. Name each seat with one word, such as client.",
  addSeat: "Add a seat",
  seatName: "Seat",
  rename: "Rename",
  remove: "Remove",
  seatFields: "Fields: {count}",
  questions: "Questions",
  questionsLead: "Answered by the sender for each document, such as the fee.",
  addQuestion: "Add a question",
  question: "Question",
  fields: "Fields",
  noFields: "No field yet. Put the cursor where a person fills something in and insert a field.",
  fieldOf: "{type} for {seat}",
  fieldName: "Field name",
  fieldType: "Type",
  required: "Required",
  locked: "Locked: shows its default, nobody changes it",
  editable: "The person may change the filled-in value",
  defaultValue: "Default",
  placeholder: "Placeholder",
  tooltip: "Help shown to the person",
  options: "Choices, one per line",
  autofill: "Filled in for the person",
  autofillNone: "Nothing",
  autofillName: "Their name",
  autofillEmail: "Their email address",
  autofillDate: "The date they sign",
  amount: "Amount",
  currency: "Currency",
  description: "Description",
  formula: "Formula over number fields",
  done: "Done",
  deleteField: "Delete the field",
  problems: "Problems",
  noProblems: "No problems found.",
  problemCount: "{count} problems to fix before saving",
  warnings: "To look at",
  preview: "Preview",
  previewLead: "The pages as a signer sees them, with the fields' boxes.",
  previewStale: "Drawing the pages again…",
  previewPage: "Page {page}",
  close: "Close",
  facts: "Merge values",
  fact_org: "Your organisation's name",
  fact_sender: "The sender's name",
  fact_title: "The document's title",
  fact_date: "The date it is sent",
  fact_seatName: "{seat}'s name",
  fact_seatEmail: "{seat}'s email address",
  type_signature: "Signature",
  type_initials: "Initials",
  type_text: "Text",
  type_date: "Date",
  type_checkbox: "Checkbox",
  type_radio: "One of several",
  type_select: "Drop-down list",
  type_number: "Number",
  type_email: "Email",
  type_name: "Name",
  type_company: "Company",
  type_phone: "Phone",
  type_payment: "Payment",
  signsHere: "{seat} signs here",
  needSeat: "Add a seat first.",
  savedTell: "The template is saved.",
  conflict: "Someone saved this template while you were writing. Your words are kept here; save again to make them the newest version.",
  paper: "Paper size",
  seatRule: "A seat is one word of letters a–z, digits and _, such as client or buyer_2.",
  fromFile: "Start from a file",
  fromFileHint: "A PDF, Word, Excel, PowerPoint or picture file of up to 10 MB; you place its fields on its pages.",
  reading: "Reading the file…",
  placeLead: "Choose a type and a seat, then drag on a page where the person fills something in. Move a box by dragging it, or select it and use the arrow keys (Shift for larger steps, Alt to resize).",
  addField: "Add a field to page {page}",
  fileTooBig: "The file is larger than 10 MB.",
  box: "{name}: {type} for {seat}",
};
export type Words = typeof en;

const others: Record<string, () => Promise<{ default: Words }>> = {
  es: () => import("./words/builder-es"), fr: () => import("./words/builder-fr"), de: () => import("./words/builder-de"),
  it: () => import("./words/builder-it"), pt: () => import("./words/builder-pt"), nl: () => import("./words/builder-nl"),
  pl: () => import("./words/builder-pl"), ru: () => import("./words/builder-ru"), tr: () => import("./words/builder-tr"),
  ar: () => import("./words/builder-ar"), zh: () => import("./words/builder-zh"), ja: () => import("./words/builder-ja"),
  ko: () => import("./words/builder-ko"),
};

let words: Words = en;
let code = "en";

/** Uses `lang`'s words (English when it is not one of the 14, or cannot be loaded), with
 * `lang` and `dir`. */
export async function use(lang: string): Promise<void> {
  let c = lang in others ? lang : "en";
  try {
    words = c === "en" ? en : (await others[c]()).default;
  } catch {
    words = en;
    c = "en";
  }
  code = c;
  document.documentElement.lang = c;
  document.documentElement.dir = c === "ar" ? "rtl" : "ltr";
}

/** The language in use. */
export const language = () => code;

/** The browser's first language that is one of the 14, if any. */
export function preferred(): string | null {
  for (const l of navigator.languages ?? [navigator.language]) {
    const c = l.toLowerCase().split("-")[0];
    if (c === "en" || c in others) return c;
  }
  return null;
}

/** The words of `key`, with `{name}` values filled in. */
export function t(key: keyof Words, values: Record<string, string | number> = {}): string {
  return words[key].replace(/\{(\w+)\}/g, (m, name) => (name in values ? String(values[name]) : m));
}
