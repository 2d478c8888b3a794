// Templates laid out once when made (from HTML, and from files later): what was removed from
// what the caller sent, said again on every read, and how many pages the version has. Their
// fields' pages and rectangles are kept with the fields.
const UP: &str = r#"
ALTER TABLE template_versions ADD COLUMN warnings TEXT NOT NULL DEFAULT '[]';
ALTER TABLE template_versions ADD COLUMN pages INTEGER
"#;

const DOWN: &str = r#"
ALTER TABLE template_versions DROP COLUMN pages;
ALTER TABLE template_versions DROP COLUMN warnings
"#;

plain_sql!("m0012_template_pages", UP, DOWN);
