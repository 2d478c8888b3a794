//! Templates from what people already have: HTML pages today; PDF, office files and pictures
//! as they come. Each turns into what the rest of Signet knows: the source model (for HTML),
//! printed by the same Typst engine as documents from words, so no browser runs and nothing
//! is fetched.

pub mod html;
pub mod pdf;

#[cfg(test)]
mod tests;

#[cfg(test)]
mod pdf_tests;
