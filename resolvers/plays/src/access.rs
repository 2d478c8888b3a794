//! Who may use plays, playbooks and drafts: a Pro workspace, and a key with the route's
//! scope. Both refusals are 403s naming what is missing (docs/decisions/plays.md, "Plan and
//! scopes": the spec's Plays section says so for these routes, where every other route gives
//! an under-scoped key the same 401 as any credential failure).

use signet_core::actor::{Principal, Scopes};
use signet_core::plans::Plan;
use signet_core::{Actor, DomainError, Scope};

pub fn allow(actor: &Actor, scope: Scope) -> Result<(), DomainError> {
    if actor.plan != Plan::Pro {
        return Err(DomainError::Forbidden(
            "plays, playbooks and drafts are part of the Pro plan, and this workspace is on \
             Free; an owner can move it to Pro"
                .into(),
        ));
    }
    if !actor.scopes.contains(scope) {
        // A person is told by `require` that their role cannot; a key, which scope it lacks.
        if matches!(actor.principal, Principal::Session { .. }) {
            actor.require(scope)?;
        }
        return Err(DomainError::Forbidden(format!(
            "this key lacks the scope {scope}; make a key that has it in the application's \
             Developers settings"
        )));
    }
    Ok(())
}

/// The actor as the document routes see it when a draft is made: the draft route's scope
/// (`drafts:write`) lets it make and read a draft document, and nothing else changes (its
/// mode, workspace, plan, draft-only, daily limit).
pub(crate) fn as_drafter(actor: &Actor) -> Actor {
    let mut a = actor.clone();
    a.scopes = Scopes::from_iter(
        actor
            .scopes
            .iter()
            .chain([Scope::DocumentsRead, Scope::DocumentsWrite]),
    );
    a
}
