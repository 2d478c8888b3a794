//! The services a resource crate adds to the context: the renderer and sealing authority of
//! documents, the mail transport of email, the HTTP client of webhooks, the key cache of
//! accounts. The context is built in one core crate that cannot name those types, so each is
//! kept by its type and found by it; the crate that owns a service offers a function that
//! returns it (`signet_documents::services(ctx)`), and the binary registers every one at
//! start-up, in one place.

use std::any::{Any, TypeId, type_name};
use std::collections::HashMap;
use std::sync::Arc;

#[derive(Clone, Default)]
pub struct Services(HashMap<TypeId, Arc<dyn Any + Send + Sync>>);

impl Services {
    pub fn insert<T: Any + Send + Sync>(&mut self, service: T) {
        self.0.insert(TypeId::of::<T>(), Arc::new(service));
    }

    /// The service of type `T`. One not registered at start-up is a bug of the binary's
    /// wiring, found by the first test that reaches it.
    pub fn get<T: Any + Send + Sync>(&self) -> &T {
        self.0
            .get(&TypeId::of::<T>())
            .and_then(|s| s.downcast_ref::<T>())
            .unwrap_or_else(|| panic!("the service {} was not registered", type_name::<T>()))
    }
}

impl std::fmt::Debug for Services {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Services({} registered)", self.0.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_service_is_found_by_its_type_and_a_missing_one_is_named() {
        let mut s = Services::default();
        s.insert(7u32);
        s.insert(String::from("seven"));
        assert_eq!(*s.get::<u32>(), 7);
        assert_eq!(s.get::<String>(), "seven");
        let missing =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| *s.get::<u64>())).unwrap_err();
        let said = missing
            .downcast_ref::<String>()
            .cloned()
            .unwrap_or_default();
        assert!(said.contains("u64"), "{said}");
    }
}
