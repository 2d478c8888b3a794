//! AI drafting (docs/ai.md; decisions in docs/decisions/ai.md). Jobs that draft a document
//! from a prompt and a brief, or propose changes to given words, through the operator's own
//! model: the seam and its two adapters (`provider`, `openai`, `anthropic`), the schema the
//! model writes in and its conversion to the source model (`form`), the fixed instructions
//! (`prompt`), the brief and the wizard (`brief`, `wizard`), the outcome checked as a
//! document is (`outcome`), the request side (`jobs`), the worker (`run`), the tables
//! (`store`), and the process's service (`service`).

pub mod anthropic;
pub mod brief;
pub mod form;
pub mod jobs;
pub mod openai;
pub mod outcome;
pub mod prompt;
pub mod provider;
pub mod run;
pub mod service;
pub mod store;
pub mod types;
pub mod wizard;
