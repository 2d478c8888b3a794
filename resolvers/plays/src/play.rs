//! A whole play file read (the header and the words), and what drafting asks of it: which
//! questions are asked next for the answers so far, and whether answers are ones it asks.

use std::collections::BTreeMap;

use crate::body::{self, Block};
use crate::header::{self, Header, Problem, Question};

/// Questions asked at once: the spec's limit.
pub const ROUND: usize = 4;

#[derive(Clone, Debug)]
pub struct Play {
    pub header: Header,
    pub blocks: Vec<Block>,
}

/// Reads a play file: the play, or every problem of it, header and words, in the file's
/// order.
pub fn read(file: &str) -> Result<Play, Vec<Problem>> {
    let (play, problems) = read_all(file);
    match play {
        Some(p) if problems.is_empty() => Ok(p),
        _ => Err(problems),
    }
}

/// Reads as much as can be read: the play when the header could be read at all (its words
/// checked against it), and every problem found.
pub fn read_all(file: &str) -> (Option<Play>, Vec<Problem>) {
    match header::read_all(file) {
        Err(problems) => (None, problems),
        Ok((header, line, words, mut problems)) => {
            // A header with problems still gives what it could read: the words are checked
            // for their own form and against the seats and questions that were read.
            let (blocks, more) = body::read(words, line, &header);
            problems.extend(more);
            problems.sort_by_key(|p| (p.line, p.column));
            (Some(Play { header, blocks }), problems)
        }
    }
}

/// Whether every condition of `q` holds for `answers`.
pub fn applies(q: &Question, answers: &BTreeMap<String, String>) -> bool {
    q.when
        .iter()
        .all(|(dep, vals)| answers.get(dep).is_some_and(|a| vals.contains(a)))
}

impl Play {
    /// The next questions to ask: those not yet answered whose conditions hold, in the file's
    /// order, at most [`ROUND`].
    pub fn next_round(&self, answers: &BTreeMap<String, String>) -> Vec<&Question> {
        self.header
            .questions
            .iter()
            .filter(|q| !answers.contains_key(&q.id) && applies(q, answers))
            .take(ROUND)
            .collect()
    }

    /// Answers every question asked (now or once earlier answers are in) that has a default
    /// and no answer yet.
    pub fn fill_defaults(&self, answers: &mut BTreeMap<String, String>) {
        loop {
            let mut changed = false;
            for q in &self.header.questions {
                if let Some(d) = &q.default
                    && !answers.contains_key(&q.id)
                    && applies(q, answers)
                {
                    answers.insert(q.id.clone(), d.clone());
                    changed = true;
                }
            }
            if !changed {
                return;
            }
        }
    }

    /// Checks answers given (`field` names where they were given): each names a question of
    /// the play with one of its options, and is asked for the other answers (its conditions
    /// hold). The error names the first that is not.
    pub fn check_answers(
        &self,
        field: &str,
        answers: &BTreeMap<String, String>,
    ) -> Result<(), (String, String)> {
        for (id, value) in answers {
            let at = format!("{field}.{id}");
            let Some(q) = self.header.questions.iter().find(|q| &q.id == id) else {
                return Err((at, format!("the play asks no question '{id}'")));
            };
            if !q.options.iter().any(|o| &o.value == value) {
                return Err((
                    at,
                    format!(
                        "'{value}' is not an option; choose one of: {}",
                        q.options
                            .iter()
                            .map(|o| o.value.as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                ));
            }
            if !applies(q, answers) {
                let (dep, vals) = q
                    .when
                    .iter()
                    .find(|(d, v)| answers.get(d).is_none_or(|a| !v.contains(a)))
                    .cloned()
                    .unwrap_or_default();
                return Err((
                    at,
                    format!(
                        "this question is asked only when '{dep}' is {}",
                        vals.join(" or ")
                    ),
                ));
            }
        }
        Ok(())
    }

    /// The chosen option's label of each question answered, by question id: the values of
    /// the words' `custom.<question>` chips.
    pub fn labels(&self, answers: &BTreeMap<String, String>) -> BTreeMap<String, String> {
        self.header
            .questions
            .iter()
            .filter_map(|q| {
                let a = answers.get(&q.id)?;
                let o = q.options.iter().find(|o| &o.value == a)?;
                Some((q.id.clone(), o.label.clone()))
            })
            .collect()
    }

    /// The rounds a person meets who takes every default (the first option where there is
    /// none), and those answers: what the dry run shows and checks.
    pub fn walk_defaults(&self) -> (Vec<Vec<&Question>>, BTreeMap<String, String>) {
        let mut answers = BTreeMap::new();
        let mut rounds = Vec::new();
        loop {
            let round = self.next_round(&answers);
            if round.is_empty() {
                return (rounds, answers);
            }
            for q in &round {
                let v = q
                    .default
                    .clone()
                    .or_else(|| q.options.first().map(|o| o.value.clone()))
                    .unwrap_or_default();
                answers.insert(q.id.clone(), v);
            }
            rounds.push(round);
        }
    }
}

/// The file with its header's `name:` set to `name` (what duplicating writes): the first
/// top-level `name:` line of the header is replaced; the rest is kept byte for byte.
pub fn renamed(file: &str, name: &str) -> Option<String> {
    let (yaml, _, _) = header::split(file).ok()?;
    // `yaml` is a slice of `file`: where it begins is where its bytes are.
    let mut at = yaml.as_ptr() as usize - file.as_ptr() as usize;
    for line in yaml.split_inclusive('\n') {
        if line.starts_with("name:") {
            let end = if line.ends_with("\r\n") {
                "\r\n"
            } else if line.ends_with('\n') {
                "\n"
            } else {
                ""
            };
            let mut out = String::with_capacity(file.len() + name.len());
            out.push_str(&file[..at]);
            out.push_str(&format!("name: {name}{end}"));
            out.push_str(&file[at + line.len()..]);
            return Some(out);
        }
        at += line.len();
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    const FILE: &str = "---
name: rounds
title: Rounds
description: Questions in rounds.
kind: document
category: general
language: en
seats:
  - role: client
    label: Client
questions:
  - id: qa
    ask: A?
    options: [{value: x, label: X}, {value: y, label: Y}]
    default: x
  - id: qb
    ask: B?
    options: [{value: x, label: X}, {value: y, label: Y}]
  - id: qc
    ask: C?
    options: [{value: x, label: X}, {value: y, label: Y}]
  - id: qd
    ask: D?
    options: [{value: x, label: X}, {value: y, label: Y}]
  - id: qe
    ask: E?
    options: [{value: x, label: X}, {value: y, label: Y}]
  - id: qf
    ask: F?
    when: {qa: y}
    options: [{value: x, label: X}, {value: y, label: Y}]
    default: y
---
Words for {{client.name}}.

::: signatures
";

    #[test]
    fn questions_come_four_at_a_time_and_later_ones_follow_answers() {
        let p = read(FILE).unwrap();
        let mut answers = BTreeMap::new();
        let ids = |r: Vec<&Question>| r.iter().map(|q| q.id.clone()).collect::<Vec<_>>();
        assert_eq!(ids(p.next_round(&answers)), ["qa", "qb", "qc", "qd"]);
        for k in ["qa", "qb", "qc", "qd"] {
            answers.insert(k.to_string(), "y".to_string());
        }
        assert_eq!(ids(p.next_round(&answers)), ["qe", "qf"]);
        answers.insert("qa".into(), "x".into());
        assert_eq!(ids(p.next_round(&answers)), ["qe"]);
        // f asked only when a = y.
        answers.insert("qf".into(), "x".into());
        let e = p.check_answers("answers", &answers).unwrap_err();
        assert_eq!(e.0, "answers.qf");
        answers.remove("qf");
        answers.insert("qb".into(), "z".into());
        assert!(
            p.check_answers("answers", &answers)
                .unwrap_err()
                .1
                .contains("not an option")
        );
        let mut d = BTreeMap::from([("qa".to_string(), "y".to_string())]);
        p.fill_defaults(&mut d);
        assert_eq!(d.get("qf").map(String::as_str), Some("y"));
        let (rounds, walked) = p.walk_defaults();
        assert_eq!(rounds.len(), 2);
        assert_eq!(walked.len(), 5);
    }

    #[test]
    fn a_duplicate_takes_its_new_name_and_keeps_every_other_byte() {
        let out = renamed(FILE, "my-rounds").unwrap();
        assert_eq!(read(&out).unwrap().header.name, "my-rounds");
        assert_eq!(out.replace("my-rounds", "rounds"), FILE);
    }
}
