//! JSON Canvas core.
