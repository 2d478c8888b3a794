#![doc = include_str!("../README.md")]

mod completion;
mod fonts;
mod input;
mod markup;
pub mod pages;
mod render;
mod world;

pub use completion::{Certificate, CertificatePerson, PlacedValue, ValueKind};
pub use fonts::{COVERAGE, HANDWRITING};
pub use input::{FieldRect, Labels, Paper, Profile, RenderError, RenderInput, Rendered};
pub use pages::{PageView, TextRun};
pub use render::Renderer;

#[cfg(test)]
mod tests;
