// One field shown in several places (the same text tag written on each page, initials on
// every page): the field's row keeps its first place in `page`, `x`, `y`, `width`, `height`
// and the others here, as a JSON array of `{page, x, y, width, height}`; null when it has one.
const UP: &str = r#"
ALTER TABLE fields ADD COLUMN areas TEXT
"#;

const DOWN: &str = r#"
ALTER TABLE fields DROP COLUMN areas
"#;

plain_sql!("m0013_field_areas", UP, DOWN);
